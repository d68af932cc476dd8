import { Dirty } from '../../core/components.ts';
import { itemsChanged } from '../../core/players.ts';
import { emitError, type GameWorld, markDirty, type PlayerData } from '../../core/world.ts';
import { GROUND_ITEMS, spawnGroundItem } from '../ground-items/index.ts';
import { countItem, itemsLocked, takeFromSlot } from '../inventory/index.ts';
import { spellOf } from './attacker.ts';
import type { HitStyle } from './events.ts';

/** What ranged and magic attacks use up: arrows from the ammo slot, runes from the inventory. */

/**
 * What a shot or a cast costs, taken before it is made: one arrow from the ammo slot (`arrows`), or the
 * spell's runes from the inventory. False (and `MISSING_ITEMS`, `LEVEL_TOO_LOW` for a spell above the
 * magic level, or the item lock's error during a trade or an item transaction) when the player cannot
 * pay; the fight then ends.
 */
export function payForAttack(
  world: GameWorld,
  player: PlayerData,
  kind: HitStyle,
  origin?: string,
): string | null | false {
  // Arrows and runes are items: not while a trade or an item transaction holds them.
  if (kind !== 'melee' && itemsLocked(world, player, origin)) return false;
  if (kind === 'ranged') {
    const ammo = player.state.equipment.arrows;
    if (!ammo || ammo.quantity <= 0) {
      emitError(world, player.characterId, 'MISSING_ITEMS', 'You have no arrows in your ammo slot', origin);
      return false;
    }
    ammo.quantity -= 1;
    if (ammo.quantity === 0) delete player.state.equipment.arrows;
    itemsChanged(world, player);
    return ammo.itemId;
  }
  if (kind === 'magic') {
    const spell = spellOf(world, player);
    if (!spell) return false;
    if (player.state.skills.magic.level < spell.level) {
      emitError(world, player.characterId, 'LEVEL_TOO_LOW', `Magic level ${spell.level} required`, origin);
      return false;
    }
    const inv = player.state.inventory;
    const missing = spell.runes.find((r) => countItem(inv, r.itemId) < r.quantity);
    if (missing) {
      emitError(
        world,
        player.characterId,
        'MISSING_ITEMS',
        `You do not have the runes for ${spell.name}`,
        origin,
      );
      return false;
    }
    for (const r of spell.runes) {
      let left = r.quantity;
      for (let slot = 0; slot < inv.length && left > 0; slot++)
        if (inv[slot]?.itemId === r.itemId) left -= takeFromSlot(inv, slot, left);
    }
    itemsChanged(world, player);
  }
  return null;
}

/** Chance that a fired arrow lands under the target instead of breaking. */
export const ARROW_DROP_CHANCE = 0.2;

/** An arrow lands under the target: onto the shooter's arrow pile there, or a new one (the shooter's for 60 s). */
export function dropArrow(world: GameWorld, shooter: PlayerData, arrowId: string, target: number): void {
  const p = world.c.Position;
  const x = p.x[target] as number;
  const z = p.z[target] as number;
  const items = world.get(GROUND_ITEMS).byEid;
  let pile: number | undefined;
  world.grid.forEachInSquare(x, z, 0, (eid) => {
    const g = items.get(eid);
    if (
      pile === undefined &&
      g &&
      p.x[eid] === x &&
      p.z[eid] === z &&
      g.itemId === arrowId &&
      g.ownerId === shooter.characterId &&
      !g.deathLockId
    )
      pile = eid;
  });
  const g = pile === undefined ? undefined : items.get(pile);
  if (g) {
    g.quantity += 1;
    markDirty(world, g.eid, Dirty.quantity);
  } else {
    spawnGroundItem(world, { itemId: arrowId, quantity: 1 }, x, z, shooter.characterId);
  }
}
