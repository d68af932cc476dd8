import { handleAction } from './actions.ts';
import { handleChatCommand } from './admin/admin.ts';
import { handleBankDeposit, handleBankWithdraw } from './bank/bank.ts';
import { chatCommand } from './chat/chat-command.ts';
import type { CommandOf, CommandType } from './commands.ts';
import { deathSystem, handleDamage, releaseDeathLockOnDespawn } from './death/death.ts';
import { handleUnequip } from './equipment/equip.ts';
import { groundItemsSystem } from './ground-items/ground-items.ts';
import { handleInventoryDrop, handleInventoryMove } from './inventory/drop-move.ts';
import { handleTxResult, txLeaveHook, txSaveGuard } from './inventory/item-tx.ts';
import { handleInventoryUse } from './inventory/use.ts';
import { type MoveHook, moveCancelCommand, moveCommand } from './movement/commands.ts';
import { movementSystem } from './movement/movement-system.ts';
import { pathfindingSystem } from './movement/pathfinding-system.ts';
import { wanderSystem } from './npcs/wander-system.ts';
import { joinPlayer, type LeaveHook, leavePlayer } from './players.ts';
import { handleTradeAccept } from './trade/complete.ts';
import { handleTradeAddItem, handleTradeRemoveItem, handleTradeSetCoins } from './trade/offer.ts';
import {
  handleTradeCancel,
  handleTradeRequest,
  handleTradeRespond,
  tradeExpirySystem,
  tradeLeaveHook,
  tradeMoveHook,
} from './trade/request.ts';
import type { GameWorld } from './world.ts';

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
 *  8. tx guard    LAST: players with an item transaction in flight are not snapshotted (item-tx.ts)
 *  after the tick (outside ecs/): replication builds world:update per observer, player:sync for marked
 *  players, then the persistence hand-off takes world.persist.
 */

export interface System {
  readonly name: string;
  run(world: GameWorld): void;
}

type Handlers = { [T in CommandType]: (world: GameWorld, cmd: CommandOf<T>) => void };

/** Run before a player leaves the world, in this order. */
export const LEAVE_HOOKS: readonly LeaveHook[] = [
  // The trade ends first (partner told `disconnected`), then a pending transaction holds the snapshot.
  tradeLeaveHook,
  txLeaveHook,
];

/** Run when a player asks to move (before the path request), e.g. a trade in progress is cancelled. */
export const MOVE_HOOKS: readonly MoveHook[] = [tradeMoveHook];

export const COMMAND_HANDLERS: Handlers = {
  join: joinPlayer,
  leave: (world, cmd) => leavePlayer(world, cmd, LEAVE_HOOKS),
  move: (world, cmd) => moveCommand(world, cmd, MOVE_HOOKS),
  moveCancel: (world, cmd) => moveCancelCommand(world, cmd, MOVE_HOOKS),
  chat: chatCommand,
  chatCommand: handleChatCommand,
  setAdmin: (world, cmd) => {
    const p = world.players.get(cmd.characterId);
    if (p) p.admin = true;
  },
  action: handleAction,
  inventoryUse: handleInventoryUse,
  inventoryDrop: handleInventoryDrop,
  inventoryMove: handleInventoryMove,
  unequip: handleUnequip,
  bankDeposit: handleBankDeposit,
  bankWithdraw: handleBankWithdraw,
  tradeRequest: handleTradeRequest,
  tradeRespond: handleTradeRespond,
  tradeAddItem: handleTradeAddItem,
  tradeSetCoins: handleTradeSetCoins,
  tradeRemoveItem: handleTradeRemoveItem,
  tradeAccept: handleTradeAccept,
  tradeCancel: handleTradeCancel,
  damage: handleDamage,
  txResult: handleTxResult,
};

export const SYSTEMS: readonly System[] = [
  { name: 'pathfinding', run: pathfindingSystem },
  { name: 'movement', run: movementSystem },
  { name: 'npcs', run: wanderSystem },
  { name: 'trade', run: tradeExpirySystem },
  { name: 'items', run: (world) => groundItemsSystem(world, releaseDeathLockOnDespawn) },
  { name: 'death', run: deathSystem },
  // Must stay last: it undoes saves that other systems of this tick asked for a locked player.
  { name: 'txGuard', run: txSaveGuard },
];
