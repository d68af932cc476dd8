import type { ItemStack } from '../../core/character-state.ts';
import { Dirty } from '../../core/components.ts';
import { groundItemExpired } from '../../core/reactions.ts';
import { despawnEntity, type GameWorld, markDirty, spawnEntity, ticksFor } from '../../core/world.ts';
import { GROUND_ITEMS } from './state.ts';

/**
 * Items lying on the ground: entities of type `item` with wire id `item-<n>`. A dropped item is seen only
 * by its owner for OWNER_ONLY_SECONDS, then by everyone, and vanishes after DESPAWN_SECONDS.
 * Who may see one is decided here only (groundItemVisibleTo); replication asks it.
 */

export const OWNER_ONLY_SECONDS = 60;
export const DESPAWN_SECONDS = 180;

export function spawnGroundItem(
  world: GameWorld,
  stack: ItemStack,
  x: number,
  z: number,
  ownerId: string | null,
  deathLockId?: string,
): number {
  const items = world.get(GROUND_ITEMS);
  const eid = spawnEntity(world, 'item', `item-${++items.dropped}`, x, z);
  items.byEid.set(eid, {
    eid,
    itemId: stack.itemId,
    quantity: stack.quantity,
    ownerId,
    publicAtTick: world.tick + ticksFor(world, OWNER_ONLY_SECONDS),
    despawnAtTick: world.tick + ticksFor(world, DESPAWN_SECONDS),
    ...(deathLockId === undefined ? {} : { deathLockId }),
  });
  return eid;
}

export function removeGroundItem(world: GameWorld, eid: number): void {
  world.get(GROUND_ITEMS).byEid.delete(eid);
  despawnEntity(world, eid);
}

/** Who may see (and pick up) a ground item now. */
export function groundItemVisibleTo(world: GameWorld, eid: number, characterId: string): boolean {
  const g = world.get(GROUND_ITEMS).byEid.get(eid);
  return g !== undefined && (g.ownerId === null || g.ownerId === characterId);
}

/**
 * System: owner-only items become public, old items despawn (after the groundItemExpired reactions: the
 * death feature releases the death lock of an item nobody picked up).
 */
export function groundItemsSystem(world: GameWorld): void {
  const items = world.get(GROUND_ITEMS).byEid;
  if (items.size === 0) return;
  for (const g of [...items.values()]) {
    if (world.tick >= g.despawnAtTick) {
      groundItemExpired(world, g.eid);
      removeGroundItem(world, g.eid);
    } else if (g.ownerId !== null && world.tick >= g.publicAtTick) {
      g.ownerId = null;
      markDirty(world, g.eid, Dirty.visibility);
    }
  }
}
