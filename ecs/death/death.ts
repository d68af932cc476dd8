import type { ItemStack } from '../character-state.ts';
import type { CommandOf } from '../commands.ts';
import { Dirty, MoveMode } from '../components.ts';
import { spawnGroundItem } from '../ground-items/ground-items.ts';
import { holdingsOf, nextTxId, submitTx } from '../inventory/item-tx.ts';
import { itemsChanged, stateChanged } from '../players.ts';
import { tradeDeathHook } from '../trade/request.ts';
import { emitError, type GameWorld, markDirty, markPosition, type PlayerData } from '../world.ts';

/**
 * Damage and death. At 0 health (checked by deathSystem, after the commands) a trade in progress ends
 * with `died`, the tradeable inventory and the equipment drop at the death tile as ground items owned by
 * the player (public after a while), and the player respawns at the spawn with full health.
 *
 * The drop is one DeathLockRequest: in one database transaction the items leave the character and a lock
 * row holds them. Each dropped ground item carries the lock id; picking one up (ground-items/pickup.ts)
 * or its despawn is an ItemTxRequest with `deathLock` that takes those items out of the lock. Whatever a
 * crash leaves in a lock, persistence returns to the owner's bank at start-up. The coin pouch and
 * untradeable items are kept. A death while an item transaction is in flight waits for its outcome.
 */

export function handleDamage(world: GameWorld, cmd: CommandOf<'damage'>): void {
  const player = world.players.get(cmd.characterId);
  if (!player) return;
  if (!Number.isInteger(cmd.amount) || cmd.amount < 0) {
    emitError(world, player.characterId, 'BAD_MESSAGE', 'damage must be a whole number >= 0', cmd.origin);
    return;
  }
  const h = world.c.Health;
  const now = Math.max(0, (h.current[player.eid] as number) - cmd.amount);
  if (now === h.current[player.eid]) return;
  h.current[player.eid] = now;
  markDirty(world, player.eid, Dirty.health);
  player.state.health = now;
  stateChanged(world, player, true);
}

function die(world: GameWorld, player: PlayerData): void {
  tradeDeathHook(world, player);
  const before = holdingsOf(player, true);
  const after = holdingsOf(player, true);
  const dropped: ItemStack[] = [];
  after.inventory = after.inventory.map((s) => {
    if (!s || !(world.content.items.get(s.itemId)?.tradeable ?? false)) return s;
    dropped.push(s);
    return null;
  });
  for (const [slot, s] of Object.entries(after.equipment ?? {})) {
    if (!s || !(world.content.items.get(s.itemId)?.tradeable ?? false)) continue;
    dropped.push(s);
    delete after.equipment?.[slot as keyof typeof after.equipment];
  }
  const { c } = world;
  const x = c.Position.x[player.eid] as number;
  const z = c.Position.z[player.eid] as number;
  if (dropped.length > 0) {
    world.counters.tx += 1;
    const id = `death-${world.counters.tx}`;
    world.persist.deathLocks.push({
      id,
      characterId: player.characterId,
      position: { x, y: c.Position.y[player.eid] as number, z },
      items: structuredClone(dropped),
      before,
      after,
    });
    for (const s of dropped) spawnGroundItem(world, s, x, z, player.characterId, id);
    player.state.inventory = after.inventory;
    player.state.equipment = after.equipment ?? {};
    itemsChanged(world, player);
  }
  const spawn = world.content.spawn;
  world.paths[player.eid] = null;
  c.Movement.mode[player.eid] = MoveMode.idle;
  markPosition(world, player.eid, spawn.x, spawn.z);
  c.Health.current[player.eid] = c.Health.max[player.eid] as number;
  markDirty(world, player.eid, Dirty.health);
  player.state.health = c.Health.max[player.eid] as number;
  player.state.position = { x: spawn.x, y: 0, z: spawn.z };
  stateChanged(world, player, true);
}

/**
 * System: players at 0 health die. Not while an item transaction is in flight, and not in a tick that
 * changed their items: the death lock's `before` must be what the database holds (the snapshot of this
 * tick is saved after the tick's death locks), so such a death waits a tick.
 */
export function deathSystem(world: GameWorld): void {
  const h = world.c.Health;
  for (const player of world.players.values()) {
    if ((h.current[player.eid] as number) > 0 || player.pendingTx > 0) continue;
    if (world.persist.itemsChanged.has(player.characterId)) continue;
    die(world, player);
  }
}

/** A death-dropped item nobody picked up despawns: its part of the lock is released (gone for good). */
export function releaseDeathLockOnDespawn(world: GameWorld, eid: number): void {
  const g = world.groundItems.get(eid);
  if (!g?.deathLockId) return;
  const lock = g.deathLockId;
  submitTx(world, {
    request: {
      id: nextTxId(world),
      kind: 'death',
      requesterId: g.ownerId ?? 'system',
      changes: [],
      conserve: false,
      deathLock: { id: lock, items: [{ itemId: g.itemId, quantity: g.quantity }] },
    },
    onResult: () => {},
  });
}
