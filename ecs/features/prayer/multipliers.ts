import type { GameWorld, PlayerData } from '../../core/world.ts';
import { PRAYERS } from './state.ts';

export interface PrayerMultipliers {
  attack: number;
  strength: number;
  defense: number;
}

/**
 * The level multipliers of a player's active prayers (prayers.json `bonuses`: attackMultiplier,
 * strengthMultiplier, defenseMultiplier); several multiply together, none is 1.
 */
export function prayerMultipliers(world: GameWorld, player: PlayerData): PrayerMultipliers {
  const out = { attack: 1, strength: 1, defense: 1 };
  const data = world.get(PRAYERS).get(player.characterId);
  if (!data || data.active.length === 0) return out;
  for (const id of data.active) {
    const b = world.content.prayers?.get(id)?.bonuses;
    if (!b) continue;
    out.attack *= b.attackMultiplier ?? 1;
    out.strength *= b.strengthMultiplier ?? 1;
    out.defense *= b.defenseMultiplier ?? b.defenceMultiplier ?? 1;
  }
  return out;
}
