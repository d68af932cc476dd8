import { chatCommand } from './chat/chat-command.ts';
import type { CommandOf, CommandType } from './commands.ts';
import { type MoveHook, moveCancelCommand, moveCommand } from './movement/commands.ts';
import { movementSystem } from './movement/movement-system.ts';
import { pathfindingSystem } from './movement/pathfinding-system.ts';
import { wanderSystem } from './npcs/wander-system.ts';
import { joinPlayer, type LeaveHook, leavePlayer } from './players.ts';
import { emitError, type GameWorld } from './world.ts';

/**
 * The tick, in order. Every system is a plain synchronous function over the world; this file is the
 * only place the order is decided.
 *
 *  0. begin       free last tick's despawned eids, clear per-tick outputs (tick.ts)
 *  1. commands    apply this tick's commands in arrival order (COMMAND_HANDLERS below)
 *  2. pathfinding resolve queued path requests within the per-tick budget
 *  3. movement    advance walkers 2 tiles and runners 4 along their paths
 *  4. npcs        wander inside their spawn radius; respawn the dead
 *  5. trade       proximity/expiry endings of trades
 *  6. items       ground item visibility and despawn
 *  7. death       players at 0 health drop their items (death lock) and respawn
 *  after the tick (outside ecs/): replication builds world:update per observer, player:sync for marked
 *  players, then the persistence hand-off takes world.persist.
 */

export interface System {
  readonly name: string;
  run(world: GameWorld): void;
}

type Handlers = { [T in CommandType]: (world: GameWorld, cmd: CommandOf<T>) => void };

const notYet = (world: GameWorld, cmd: { characterId: string; origin?: string }) =>
  emitError(world, cmd.characterId, 'BAD_MESSAGE', 'this action is not available yet', cmd.origin);

/** Run before a player leaves the world, in this order. */
export const LEAVE_HOOKS: readonly LeaveHook[] = [];

/** Run when a player asks to move (before the path request), e.g. a trade in progress is cancelled. */
export const MOVE_HOOKS: readonly MoveHook[] = [];

export const COMMAND_HANDLERS: Handlers = {
  join: joinPlayer,
  leave: (world, cmd) => leavePlayer(world, cmd, LEAVE_HOOKS),
  move: (world, cmd) => moveCommand(world, cmd, MOVE_HOOKS),
  moveCancel: (world, cmd) => moveCancelCommand(world, cmd, MOVE_HOOKS),
  chat: chatCommand,
  chatCommand: notYet,
  setAdmin: (world, cmd) => {
    const p = world.players.get(cmd.characterId);
    if (p) p.admin = true;
  },
  action: notYet,
  inventoryUse: notYet,
  inventoryDrop: notYet,
  inventoryMove: notYet,
  unequip: notYet,
  bankDeposit: notYet,
  bankWithdraw: notYet,
  tradeRequest: notYet,
  tradeRespond: notYet,
  tradeAddItem: notYet,
  tradeSetCoins: notYet,
  tradeRemoveItem: notYet,
  tradeAccept: notYet,
  tradeCancel: notYet,
  damage: notYet,
  txResult: () => {},
};

export const SYSTEMS: readonly System[] = [
  { name: 'pathfinding', run: pathfindingSystem },
  { name: 'movement', run: movementSystem },
  { name: 'npcs', run: wanderSystem },
];
