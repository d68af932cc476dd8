import type { ItemStack } from '../../core/character-state.ts';
import { itemsChanged } from '../../core/players.ts';
import { emitError, type GameWorld, type PlayerData } from '../../core/world.ts';
import { addItem, holdingsOf, itemsLocked, nextTxId, type Purse, submitTx } from '../inventory/index.ts';
import { groundItemVisibleTo, removeGroundItem, spawnGroundItem } from './ground-items.ts';
import { GROUND_ITEMS } from './state.ts';

/**
 * `player:action pickup`: from the player's tile or an adjacent one. An ordinary item moves at once
 * (committed within the tick). An item a death dropped is still held by its death lock in the database,
 * so it moves through an item transaction that also takes it out of the lock: the item leaves the
 * ground now and comes back if the database refuses.
 */

export const PICKUP_RANGE = 1;

export function handlePickup(world: GameWorld, player: PlayerData, targetId: string, origin?: string): void {
  if (itemsLocked(world, player, origin)) return;
  const eid = world.eidByWireId.get(targetId);
  const g = eid === undefined ? undefined : world.get(GROUND_ITEMS).byEid.get(eid);
  if (eid === undefined || !g || !groundItemVisibleTo(world, eid, player.characterId)) {
    emitError(world, player.characterId, 'NOT_FOUND', 'there is no such item here', origin);
    return;
  }
  const p = world.c.Position;
  const dx = Math.abs((p.x[eid] as number) - (p.x[player.eid] as number));
  const dz = Math.abs((p.z[eid] as number) - (p.z[player.eid] as number));
  if (Math.max(dx, dz) > PICKUP_RANGE) {
    emitError(world, player.characterId, 'TOO_FAR', 'move closer', origin);
    return;
  }
  const purse: Purse = { inventory: structuredClone(player.state.inventory), coins: player.state.coins };
  if (!addItem(world.content, purse, g.itemId, g.quantity)) {
    emitError(world, player.characterId, 'INVENTORY_FULL', 'your inventory is full', origin);
    return;
  }
  const stack: ItemStack = { itemId: g.itemId, quantity: g.quantity };
  const x = p.x[eid] as number;
  const z = p.z[eid] as number;
  const lockId = g.deathLockId;
  removeGroundItem(world, eid);
  if (lockId === undefined) {
    player.state.inventory = purse.inventory;
    player.state.coins = purse.coins;
    itemsChanged(world, player);
    return;
  }
  const before = holdingsOf(player);
  submitTx(world, {
    request: {
      id: nextTxId(world),
      kind: 'death',
      requesterId: player.characterId,
      changes: [{ characterId: player.characterId, before, after: { ...before, ...purse } }],
      conserve: false,
      deathLock: { id: lockId, items: [stack] },
    },
    onResult: (w, ok) => {
      // Refused: the item is still the lock's, so it lies down again (public: it was visible to this player).
      if (!ok) spawnGroundItem(w, stack, x, z, null, lockId);
    },
  });
}
