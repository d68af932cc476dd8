import type { z } from 'zod';
import type { SimEventKind } from '../../ecs/core/events.ts';
import type { ClientEventSpec, ServerEventSpec, WireFace } from '../../ecs/core/faces/wire.ts';
import { FEATURES } from '../../ecs/schedule.ts';
import { SESSION_WIRE } from './session.ts';

/**
 * Every wire face in one list: net's own session events first, then each feature's face in FEATURES
 * order. client-events.ts and server-events.ts merge them into the one table of each direction.
 */

type WireOf<F> = F extends { readonly wire?: infer W } ? NonNullable<W> : never;
type UnionToIntersection<U> = (U extends unknown ? (u: U) => void : never) extends (i: infer I) => void
  ? I
  : never;

/** The session's face and every feature's, as one union (for the tables' static types). */
export type Faces = typeof SESSION_WIRE | WireOf<(typeof FEATURES)[number]>;
export type ClientSpecsOf<W> = UnionToIntersection<W extends { readonly client: infer C } ? C : never>;
export type ServerSpecsOf<W> = UnionToIntersection<W extends { readonly server: infer S } ? S : never>;

export const FACES: readonly WireFace[] = [
  SESSION_WIRE,
  ...FEATURES.flatMap((f) => (f.wire ? [f.wire] : [])),
];

/** One side's events of every face; two faces naming one event is a mistake caught at start-up. */
export function merge<
  T extends ClientEventSpec<z.ZodType> | ServerEventSpec<z.ZodType, SimEventKind | undefined>,
>(tables: readonly (Readonly<Record<string, T>> | undefined)[]): Record<string, T> {
  const out: Record<string, T> = {};
  for (const table of tables) {
    for (const [name, spec] of Object.entries(table ?? {})) {
      if (Object.hasOwn(out, name)) throw new Error(`wire event ${name} is declared twice`);
      out[name] = spec;
    }
  }
  return out;
}
