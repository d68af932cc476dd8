import type { z } from 'zod';
import type { ClientEventSpec, Translation } from '../../ecs/core/faces/wire.ts';

import { type ClientSpecsOf, FACES, type Faces, merge } from './wires.ts';

/**
 * Client-to-server events: the session's and every feature's wire face (wires.ts), one table. The codec,
 * docs/protocol.md (npm run docs) and the SDK's types read it.
 */
type Specs = ClientSpecsOf<Faces>;
const CLIENT_EVENTS = merge(FACES.map((w) => w.client)) as unknown as Specs;
export type ClientEventName = keyof Specs;
type SchemaOf<E extends ClientEventName> = Specs[E] extends ClientEventSpec<infer S> ? S : never;

/** Each event's payload schema. */
export const clientEvents = Object.fromEntries(
  Object.entries(CLIENT_EVENTS).map(([name, spec]) => [name, spec.schema]),
) as { [E in ClientEventName]: SchemaOf<E> };

/** One line per event for the generated protocol reference. */
export const clientEventDocs = Object.fromEntries(
  Object.entries(CLIENT_EVENTS).map(([name, spec]) => [name, spec.doc]),
) as Record<ClientEventName, string>;

export type ClientPayload<E extends ClientEventName> = z.output<SchemaOf<E>>;

/** A decoded, validated client message. */
export type ClientMessage = {
  [E in ClientEventName]: { event: E; payload: ClientPayload<E> };
}[ClientEventName];

export function isClientEventName(name: string): name is ClientEventName {
  return Object.hasOwn(CLIENT_EVENTS, name);
}

/**
 * Client message → simulation command, by the table above (ARCHITECTURE rule 2: adapters only enqueue
 * intents). Pure: the session decides what to do with the result.
 */
export function translate(characterId: string, m: ClientMessage): Translation {
  const spec = CLIENT_EVENTS[m.event] as ClientEventSpec<z.ZodType>;
  return spec.translate({ characterId, origin: m.event }, m.payload);
}
