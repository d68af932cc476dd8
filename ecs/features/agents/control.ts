import type { CommandOf } from '../../core/commands.ts';
import { playerMoving } from '../../core/reactions.ts';
import { emit, type GameWorld } from '../../core/world.ts';
import { cancelMovement } from '../movement/index.ts';

/**
 * The agent's side of the tick. Goals themselves are kept by the agent routes (they are the agent
 * runtime's plan, not world state); the world only carries their effects: a stop ends the character's
 * path and current action (the `move` reaction closes whatever it had open, as a player's cancel does),
 * and goal changes and messages reach the agent's connection in command order, after its join.
 */

export function handleAgentControl(world: GameWorld, cmd: CommandOf<'agentControl'>): void {
  const player = world.players.get(cmd.characterId);
  if (!player) return;
  if (cmd.stop) {
    playerMoving(world, player);
    cancelMovement(world, player.eid);
  }
  emit(world, player.characterId, 'agentGoal', { goal: cmd.goal, goalsPaused: cmd.goalsPaused });
}

export function handleAgentMessage(world: GameWorld, cmd: CommandOf<'agentMessage'>): void {
  if (!world.players.has(cmd.characterId)) return;
  emit(world, cmd.characterId, 'agentMessage', {
    from: { accountId: cmd.from.accountId, name: cmd.from.name },
    content: cmd.content,
    timestamp: cmd.timestamp,
  });
}
