import type { CharacterSlices } from '../../ecs/core/character-state.ts';
import type { SqlTx } from '../sql.ts';
import type { OnQuarantine } from '../stored-json.ts';

/**
 * A persistence slice: the per-character state of one feature, in tables of its own (created by its
 * migration in persistence/migrations/), loaded with the character and saved with its snapshots in the
 * same transaction as the rest of the character. Features with such state add a slice here instead of
 * new columns threaded through the character record.
 */
export interface CharacterSlice<K extends keyof CharacterSlices> {
  readonly name: K;
  /**
   * The slice of each of these characters that has one (absent: the feature's default). A stored value
   * that cannot be loaded (persistence/stored-json.ts) is left out and reported to `onQuarantine`.
   */
  load(
    tx: SqlTx,
    characterIds: readonly string[],
    onQuarantine: OnQuarantine,
  ): Promise<Map<string, CharacterSlices[K]>>;
  /** Write these characters' slices (upsert); called inside the save's transaction. */
  save(tx: SqlTx, rows: readonly { characterId: string; value: CharacterSlices[K] }[]): Promise<void>;
}

export function defineSlice<K extends keyof CharacterSlices>(slice: CharacterSlice<K>): CharacterSlice<K> {
  return slice;
}
