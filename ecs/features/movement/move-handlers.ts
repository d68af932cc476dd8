import type { CommandOf } from '../../core/commands.ts';
import { playerMoving } from '../../core/reactions.ts';
import { emitError, type GameWorld } from '../../core/world.ts';
import { cancelMovement, requestPath } from './requests.ts';
import { MAX_MOVE_DISTANCE } from './state.ts';

/** `move`: TOO_FAR is checked before anything else; then the move reactions run and the request is queued. */
export function moveCommand(world: GameWorld, cmd: CommandOf<'move'>): void {
  const player = world.players.get(cmd.characterId);
  if (!player) return;
  const { eid } = player;
  const dx = Math.abs(cmd.x - (world.c.Position.x[eid] as number));
  const dz = Math.abs(cmd.z - (world.c.Position.z[eid] as number));
  if (Math.max(dx, dz) > MAX_MOVE_DISTANCE) {
    emitError(
      world,
      cmd.characterId,
      'TOO_FAR',
      `a move may go at most ${MAX_MOVE_DISTANCE} tiles`,
      cmd.origin,
    );
    return;
  }
  playerMoving(world, player);
  requestPath(world, eid, cmd.x, cmd.z, cmd.run, cmd.characterId, cmd.origin);
}

export function moveCancelCommand(world: GameWorld, cmd: CommandOf<'moveCancel'>): void {
  const player = world.players.get(cmd.characterId);
  if (!player) return;
  playerMoving(world, player);
  cancelMovement(world, player.eid);
}
