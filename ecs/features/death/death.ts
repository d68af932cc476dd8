import { EQUIP_SLOTS, type EquipSlot, type ItemStack } from '../../core/character-state.ts';
import type { CommandOf } from '../../core/commands.ts';
import { Dirty } from '../../core/components.ts';
import type { Holdings } from '../../core/persist-intents.ts';
import { itemsChanged, stateChanged } from '../../core/players.ts';
import { playerDying, playerHit } from '../../core/reactions.ts';
import { emitError, type GameWorld, markDirty, markPosition, type PlayerData } from '../../core/world.ts';
import { GROUND_ITEMS, spawnGroundItem } from '../ground-items/index.ts';
import { holdingsOf, nextTxId, submitTx, txInFlight } from '../inventory/index.ts';
import { dropPath } from '../movement/index.ts';

/**
 * Damage and death. At 0 health (checked by deathSystem, after the commands) a trade in progress ends
 * with `died`, the tradeable inventory and the equipment drop at the death tile as ground items owned by
 * the player (public after a while), and the player respawns at the spawn with full health.
 *
 * Each dropped stack is one DeathLockRequest (createDeathLock: in one database transaction the stack leaves
 * the character and a lock row holds it) and one ground item carrying that lock's id. Picking it up
 * (ground-items/pickup.ts) or its despawn is an ItemTxRequest with `deathLock` that resolves exactly that
 * lock (resolveDeathLock with the picker's claim, or without one). Whatever a crash leaves in a lock,
 * persistence returns to the owner's bank at start-up. The coin pouch and
 * untradeable items are kept.
 *
 * Nothing postpones a death: it happens in the tick health reached 0, even when the player's items
 * changed earlier in that tick (its first lock then asks persistence to settle them first), and a player
 * at 0 health has its own commands refused (core/tick.ts). The one wait is for an item transaction that
 * was already in flight: its outcome decides what the database holds, and the lock must start from that.
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
  playerHit(world, player, cmd.sourceId);
}

function die(world: GameWorld, player: PlayerData): void {
  playerDying(world, player);
  const state = player.state;
  const { c } = world;
  const x = c.Position.x[player.eid] as number;
  const z = c.Position.z[player.eid] as number;
  const position = { x, y: c.Position.y[player.eid] as number, z };
  // Items changed this tick are not in the database yet: the first lock settles them before it runs.
  let settle = world.persist.itemsChanged.has(player.characterId);
  const drops = dropsKeepingMostValuable(world, player);
  for (const drop of drops) {
    const before = holdingsOf(player, true);
    const stack = findDropped(before, drop, player);
    const id = nextTxId(world, 'death');
    world.persist.deathLocks.push({
      id,
      characterId: player.characterId,
      position,
      items: [stack],
      before,
      after: holdingsOf(player, true),
      ...(settle ? { settleFirst: true as const } : {}),
    });
    settle = false;
    spawnGroundItem(world, stack, x, z, player.characterId, id);
  }
  if (drops.length > 0) itemsChanged(world, player);
  const spawn = world.content.spawn;
  dropPath(world, player.eid);
  markPosition(world, player.eid, spawn.x, spawn.z);
  c.Health.current[player.eid] = c.Health.max[player.eid] as number;
  markDirty(world, player.eid, Dirty.health);
  state.health = c.Health.max[player.eid] as number;
  state.position = { x: spawn.x, y: 0, z: spawn.z };
  stateChanged(world, player, true);
}

/** Items a player keeps on death: the most valuable ones by manifest `value`, counted one by one. */
export const KEPT_ON_DEATH = 3;

/**
 * The drops of a death, one per inventory slot or worn item, each a function that takes it from the
 * player. The KEPT_ON_DEATH most valuable single items (a stack counts as that many items; ties: the
 * first in inventory order, then worn slots) stay, so a stack may be only partly dropped. Untradeable
 * items are always kept and do not count.
 */
function dropsKeepingMostValuable(world: GameWorld, player: PlayerData): (() => void)[] {
  const state = player.state;
  type Place = { slot: number | EquipSlot; stack: ItemStack; value: number; keep: number };
  const places: Place[] = [];
  const consider = (slot: number | EquipSlot, stack: ItemStack | null | undefined) => {
    const info = stack ? world.content.items.get(stack.itemId) : undefined;
    if (stack && info?.tradeable) places.push({ slot, stack, value: info.value, keep: 0 });
  };
  state.inventory.forEach((st, slot) => {
    consider(slot, st);
  });
  for (const slot of EQUIP_SLOTS) consider(slot, state.equipment[slot]);
  let left = KEPT_ON_DEATH;
  for (const place of [...places].sort((a, b) => b.value - a.value)) {
    if (left === 0) break;
    place.keep = Math.min(left, place.stack.quantity);
    left -= place.keep;
  }
  return places
    .filter((p) => p.keep < p.stack.quantity)
    .map((p) => () => {
      const kept = p.keep > 0 ? { itemId: p.stack.itemId, quantity: p.keep } : null;
      if (typeof p.slot === 'number') state.inventory[p.slot] = kept;
      else if (kept) state.equipment[p.slot] = kept;
      else delete state.equipment[p.slot];
    });
}

/** Apply one drop to the player and return the stack it took (the difference of the holdings). */
function findDropped(before: Holdings, drop: () => void, player: PlayerData): ItemStack {
  drop();
  const s = player.state;
  for (let i = 0; i < before.inventory.length; i++) {
    const was = before.inventory[i];
    const now = s.inventory[i]?.quantity ?? 0;
    if (was && now < was.quantity) return { itemId: was.itemId, quantity: was.quantity - now };
  }
  for (const slot of EQUIP_SLOTS) {
    const was = before.equipment?.[slot];
    const now = s.equipment[slot]?.quantity ?? 0;
    if (was && now < was.quantity) return { itemId: was.itemId, quantity: was.quantity - now };
  }
  throw new Error('death drop took nothing');
}

/**
 * System: players at 0 health die, in the tick their health reached 0. Only an item transaction already
 * in flight holds a death back (until its outcome is applied): the database holds either side of it, and
 * the death lock's `before` must be what it holds. A dead player cannot start another (its commands are
 * refused), so that wait ends with the transaction.
 */
export function deathSystem(world: GameWorld): void {
  const h = world.c.Health;
  for (const player of world.players.values()) {
    if ((h.current[player.eid] as number) > 0 || txInFlight(world, player.characterId)) continue;
    die(world, player);
  }
}

/** groundItemExpired reaction: a death-dropped item nobody picked up despawns: its part of the lock is released (gone for good). */
export function releaseDeathLockOnDespawn(world: GameWorld, eid: number): void {
  const g = world.get(GROUND_ITEMS).byEid.get(eid);
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
