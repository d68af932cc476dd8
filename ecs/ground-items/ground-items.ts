import type { ItemStack } from '../character-state.ts';
import { Dirty } from '../components.ts';
import { despawnEntity, type GameWorld, markDirty, spawnEntity, ticksFor } from '../world.ts';

/**
 * Items lying on the ground: entities of type `item` with wire id `item-<n>`. A dropped item is seen only
 * by its owner for OWNER_ONLY_SECONDS, then by everyone, and vanishes after DESPAWN_SECONDS.
 * Replication reads GroundItemData.ownerId/publicAtTick for who may see it.
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
  world.counters.item += 1;
  const eid = spawnEntity(world, 'item', `item-${world.counters.item}`, x, z);
  world.groundItems.set(eid, {
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
  world.groundItems.delete(eid);
  despawnEntity(world, eid);
}

/** Who may see (and pick up) a ground item now. */
export function groundItemVisibleTo(world: GameWorld, eid: number, characterId: string): boolean {
  const g = world.groundItems.get(eid);
  return g !== undefined && (g.ownerId === null || g.ownerId === characterId);
}

/**
 * System: owner-only items become public, old items despawn. `onDespawn` lets the death feature release
 * the death lock of an item nobody picked up.
 */
export function groundItemsSystem(
  world: GameWorld,
  onDespawn?: (world: GameWorld, eid: number) => void,
): void {
  if (world.groundItems.size === 0) return;
  for (const g of [...world.groundItems.values()]) {
    if (world.tick >= g.despawnAtTick) {
      onDespawn?.(world, g.eid);
      removeGroundItem(world, g.eid);
    } else if (g.ownerId !== null && world.tick >= g.publicAtTick) {
      g.ownerId = null;
      markDirty(world, g.eid, Dirty.visibility);
    }
  }
}
