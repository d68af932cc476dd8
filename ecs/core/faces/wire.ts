import type { z } from 'zod';
import type { Command, PlayerAction } from '../commands.ts';
import type { ErrorCode, SimEventData, SimEventKind } from '../events.ts';

/**
 * The wire face of a feature (its `wire.ts`): its client events (schema, protocol line, the command each
 * becomes), its server events (schema, protocol line, the simulation event each carries) and the
 * protocol lines of its `player:action` verbs. Attached to the feature in its `feature.ts`; net/protocol
 * assembles every feature's face into the one table the codec, the docs and the SDK read. Nothing a tick
 * runs calls a face: the simulation imports a face only to name a schema's type (`import type`).
 */

/** What a validated client message becomes. */
export type Translation =
  | { kind: 'command'; command: Command }
  /** `/admin <code>`: checked in net (session/admin.ts), never seen by the simulation. */
  | { kind: 'admin'; code: string }
  /** `agent:progress`: kept by the agent routes (net/agents), never seen by the simulation. */
  | { kind: 'agentProgress'; progress: number; note?: string }
  /** `player:logout`: the session leaves the world (saved) and closes its socket (net/session/in-world.ts). */
  | { kind: 'logout' }
  | { kind: 'error'; code: ErrorCode; message: string };

export interface CommandBase {
  characterId: string;
  /** The wire event, echoed in error events. */
  origin: string;
}

export interface ClientEventSpec<S extends z.ZodType> {
  readonly schema: S;
  readonly doc: string;
  readonly translate: (base: CommandBase, payload: z.output<S>) => Translation;
}

export function clientEvent<S extends z.ZodType>(spec: ClientEventSpec<S>): ClientEventSpec<S> {
  return spec;
}

export const command = (c: Command): Translation => ({ kind: 'command', command: c });

type Leaf = string | number | boolean | bigint | symbol | null | undefined;
type AllTrue<T> = [T] extends [true] ? true : false;
type SameKeys<A, B> = [keyof A] extends [keyof B] ? ([keyof B] extends [keyof A] ? true : false) : false;
/** The members of union P that D is assignable to (where D's keys are compared). */
type Matching<D, P> = P extends unknown ? ([D] extends [P] ? P : never) : never;
type ExactMember<D, P> = D extends Leaf
  ? true
  : D extends readonly (infer DI)[]
    ? P extends readonly (infer PI)[]
      ? Deep<DI, PI>
      : false
    : SameKeys<D, P> extends true
      ? AllTrue<{ [K in keyof D]-?: K extends keyof P ? Deep<D[K], P[K]> : false }[keyof D]>
      : false;
type Deep<D, P> = AllTrue<D extends unknown ? ExactMember<D, Matching<D, P>> : never>;

/**
 * The simulation's data is exactly the wire payload: assignable to it, and with the same keys at every
 * level (through objects, arrays and union members). A field added on one side and not the other fails
 * to compile; a narrower enum or literal passes (the simulation sends fewer error codes than the wire
 * allows). tests/types/wire-exact.ts keeps a deliberate mismatch that must stay an error.
 */
export type Exact<D, P> = [D] extends [P] ? Deep<D, P> : false;

export interface ServerEventSpec<S extends z.ZodType, K extends SimEventKind | undefined> {
  readonly schema: S;
  readonly doc: string;
  /** The simulation event this wire event carries; built outside the tick when absent (authResult...). */
  readonly from?: K;
}

/**
 * A server event. With `from`, the simulation's event data must be exactly this schema's payload. A
 * feature's events.ts types its data as the schema const's `z.output` (never from the face's table, which
 * TypeScript would see as a circular initializer); a hand-typed data (core's `error`) is checked here.
 */
export function serverEvent<S extends z.ZodType, K extends SimEventKind | undefined = undefined>(
  spec: ServerEventSpec<S, K> &
    (K extends SimEventKind
      ? Exact<SimEventData[K], z.output<S>> extends true
        ? unknown
        : { from: `the data of ${K} differs from this schema` }
      : unknown),
): ServerEventSpec<S, K> {
  return spec;
}

export interface WireFace {
  readonly client?: Readonly<Record<string, ClientEventSpec<z.ZodType>>>;
  readonly server?: Readonly<Record<string, ServerEventSpec<z.ZodType, SimEventKind | undefined>>>;
  /** One protocol line per `player:action` verb the feature answers, after the verb's name. */
  readonly verbs?: { readonly [A in PlayerAction]?: string };
}

/** A feature's wire face; `const` keeps every event's name and schema type for net/protocol's table. */
export function defineWire<const W extends WireFace>(wire: W): W {
  return wire;
}
