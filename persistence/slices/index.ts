import type { CharacterSlices, CharacterState } from '../../ecs/core/character-state.ts';
import type { SqlTx } from '../sql.ts';
import { ignoreQuarantine, type OnQuarantine } from '../stored-json.ts';
import { homeTeleportSlice } from './home-teleport.ts';
import { npcKillsSlice } from './npc-kills.ts';
import { prayerSlice } from './prayer.ts';
import { questsSlice } from './quests.ts';
import type { CharacterSlice } from './slice.ts';
import { socialSlice } from './social.ts';

/** Every persistence slice, one line each. */
export const SLICES: readonly CharacterSlice<keyof CharacterSlices>[] = [
  homeTeleportSlice,
  questsSlice,
  socialSlice,
  prayerSlice,
  npcKillsSlice,
];

/** Fill in the slices of freshly loaded characters (one query per slice for all of them). */
export async function loadSlices(
  tx: SqlTx,
  states: readonly CharacterState[],
  onQuarantine: OnQuarantine = ignoreQuarantine,
): Promise<void> {
  if (states.length === 0) return;
  const ids = states.map((s) => s.id);
  for (const slice of SLICES) {
    const found = await slice.load(tx, ids, onQuarantine);
    for (const state of states) {
      const value = found.get(state.id);
      if (value !== undefined) state.slices = { ...state.slices, [slice.name]: value };
    }
  }
}

/** Save the slices the snapshots carry (a slice a snapshot lacks is left as it is in the database). */
export async function saveSlices(tx: SqlTx, states: readonly CharacterState[]): Promise<void> {
  for (const slice of SLICES) {
    const rows: { characterId: string; value: NonNullable<CharacterSlices[typeof slice.name]> }[] = [];
    for (const s of states) {
      const value = s.slices?.[slice.name];
      if (value !== undefined) rows.push({ characterId: s.id, value });
    }
    if (rows.length > 0) await slice.save(tx, rows);
  }
}
