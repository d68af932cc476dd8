import type { z } from 'zod';
import type { CharacterSlices } from '../character-state.ts';

/**
 * The persistence face of a feature (its `persist.ts`): the per-character state it keeps across logins
 * as one JSON value, with the zod schema that value must match when it is read back. persistence/ stores
 * every such slice in one table (featureState) and derives its list of slices from FEATURES, so a feature
 * with JSON state needs no migration and no line in persistence/. State that other queries must see as
 * rows (friends, quests) keeps a table slice of its own in persistence/slices/.
 */
export interface PersistFace<K extends keyof CharacterSlices = keyof CharacterSlices> {
  /** The CharacterSlices key (declared by the feature's events.ts) this face stores. */
  readonly slice: K;
  /** What a stored value must be; one that is not is left out (the feature's default) with a warning. */
  readonly schema: z.ZodType<NonNullable<CharacterSlices[K]>>;
}

/** Any feature's persistence face, as the feature list holds it. */
export interface AnyPersistFace {
  readonly slice: keyof CharacterSlices;
  readonly schema: z.ZodType;
}

export function definePersist<const K extends keyof CharacterSlices>(face: PersistFace<K>): PersistFace<K> {
  return face;
}
