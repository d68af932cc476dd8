import type { CommandOf } from '../../core/commands.ts';
import { playerMoving } from '../../core/reactions.ts';
import { emitError, type GameWorld } from '../../core/world.ts';
import { surelyUnreachable } from './pathfinding-system.ts';
import { cancelMovement, requestPath } from './requests.ts';
import { MAX_MOVE_DISTANCE } from './state.ts';

/**
 * `move`: validated before anything changes: TOO_FAR first, then a target known to be unreachable
 * (blocked, off the map, in another region) is INVALID_TARGET. A refused move leaves the player as it
 * was: whatever it was doing goes on, its current path too. Only then do the move reactions run (they
 * end what the player was doing) and the path request is queued.
 */
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
  if (surelyUnreachable(world, eid, cmd.x, cmd.z)) {
    emitError(world, cmd.characterId, 'INVALID_TARGET', 'that tile cannot be reached', cmd.origin);
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
