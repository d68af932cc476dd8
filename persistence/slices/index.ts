import type { CharacterSlices, CharacterState } from '../../ecs/core/character-state.ts';
import type { PersistFace } from '../../ecs/core/faces/persist.ts';
import { FEATURES } from '../../ecs/schedule.ts';
import type { SqlTx } from '../sql.ts';
import { ignoreQuarantine, type OnQuarantine } from '../stored-json.ts';
import { homeTeleportSlice } from './home-teleport.ts';
import { jsonSlice } from './json-slice.ts';
import { npcKillsSlice } from './npc-kills.ts';
import { prayerSlice } from './prayer.ts';
import { questsSlice } from './quests.ts';
import type { CharacterSlice } from './slice.ts';
import { socialSlice } from './social.ts';

/** The slices kept in tables of their own (rows other queries read: friends, quests, kills...). */
export const TABLE_SLICES = [
  homeTeleportSlice,
  questsSlice,
  socialSlice,
  prayerSlice,
  npcKillsSlice,
] as const;

/** Every persistence slice: the table slices, then each feature's JSON state (its persist face). */
export const SLICES: readonly CharacterSlice<keyof CharacterSlices>[] = [
  ...TABLE_SLICES,
  ...FEATURES.flatMap((f) => (f.persist ? [jsonSlice(f.persist as PersistFace)] : [])),
];

type PersistOf<F> = F extends { readonly persist?: infer P } ? NonNullable<P> : never;
type Served =
  | (typeof TABLE_SLICES)[number]['name']
  | (PersistOf<(typeof FEATURES)[number]> extends { slice: infer K } ? K : never);
// Every slice a feature declares in CharacterSlices is stored (a compile error names the others).
type Unserved = Exclude<keyof CharacterSlices, Served>;
const allServed: [Unserved] extends [never] ? true : Unserved = true;
void allServed;

// A slice served twice would be loaded twice and saved twice: caught at start-up.
for (const [i, s] of SLICES.entries()) {
  if (SLICES.findIndex((o) => o.name === s.name) !== i) throw new Error(`slice ${s.name} is stored twice`);
}

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
