import type { z } from 'zod';
import type { SimEvent, SimEventKind } from '../../ecs/core/events.ts';
import type { ServerEventSpec } from '../../ecs/core/faces/wire.ts';

export * from './shared.ts';

import { FACES, type Faces, merge, type ServerSpecsOf } from './wires.ts';

/** Server-to-client events: the session's and every feature's wire face (wires.ts), one table. */
type Specs = ServerSpecsOf<Faces>;
const SERVER_EVENTS = merge(FACES.map((w) => w.server)) as unknown as Specs;
export type ServerEventName = keyof Specs;
// Distributive over a union of names (an empty payload schema would otherwise swallow the others).
type SchemaOf<E extends ServerEventName> = E extends ServerEventName
  ? Specs[E] extends ServerEventSpec<infer S, infer _K>
    ? S
    : never
  : never;
export type ServerPayload<E extends ServerEventName> = z.output<SchemaOf<E>>;

export const serverEvents = Object.fromEntries(
  Object.entries(SERVER_EVENTS).map(([name, spec]) => [name, spec.schema]),
) as { [E in ServerEventName]: SchemaOf<E> };

export const serverEventDocs = Object.fromEntries(
  Object.entries(SERVER_EVENTS).map(([name, spec]) => [name, spec.doc]),
) as Record<ServerEventName, string>;

/** The wire event that carries each simulation event kind, from the specs' `from`. */
type WireOf<K extends SimEventKind> = {
  [E in ServerEventName]: Specs[E] extends ServerEventSpec<z.ZodType, infer F>
    ? F extends K
      ? E
      : never
    : never;
}[ServerEventName];

// Every simulation event kind is carried by exactly one wire event (a compile error names a kind without).
type Unmapped = { [K in SimEventKind]: [WireOf<K>] extends [never] ? K : never }[SimEventKind];
const allCarried: [Unmapped] extends [never] ? true : Unmapped = true;
void allCarried;

const WIRE_NAMES = new Map<SimEventKind, ServerEventName>();
for (const [name, spec] of Object.entries(SERVER_EVENTS) as [ServerEventName, { from?: SimEventKind }][]) {
  if (spec.from !== undefined) WIRE_NAMES.set(spec.from, name);
}

export interface WireEvent {
  event: ServerEventName;
  payload: ServerPayload<ServerEventName>;
}

/** A simulation event as its wire event: the data is the payload (checked by serverEvent's `from`). */
export function toWire(e: SimEvent): WireEvent {
  return { event: WIRE_NAMES.get(e.kind) as ServerEventName, payload: e.data };
}
