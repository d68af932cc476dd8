import type { z } from 'zod';
import type { Command } from '../../ecs/core/commands.ts';
import type { SimEventData, SimEventKind } from '../../ecs/core/events.ts';
import type { ErrorCode } from './shared.ts';

/**
 * The wire side of a feature: its client events (schema, doc line, the command each becomes) and its
 * server events (schema, doc line, and the simulation event kind it carries, if any). One file per
 * feature in net/protocol/features/, merged by client-events.ts and server-events.ts: the only place
 * wire shapes are defined, and the source of docs/protocol.md.
 */

/** What a validated client message becomes. */
export type Translation =
  | { kind: 'command'; command: Command }
  /** `/admin <code>`: checked in net (session/admin.ts), never seen by the simulation. */
  | { kind: 'admin'; code: string }
  /** `agent:progress`: kept by the agent routes (net/agents), never seen by the simulation. */
  | { kind: 'agentProgress'; progress: number; note?: string }
  /** `player:logout`: the session leaves the world (saved) and closes its socket (net/session/ws-app.ts). */
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

/**
 * The simulation's data fits the wire payload: assignable to it, and the payload has no field the data
 * lacks (the data may be narrower, e.g. fewer error codes than the wire allows).
 */
type Fits<Data, Payload> = [Data] extends [Payload]
  ? [keyof Payload] extends [keyof Data]
    ? true
    : false
  : false;

export interface ServerEventSpec<S extends z.ZodType, K extends SimEventKind | undefined> {
  readonly schema: S;
  readonly doc: string;
  /** The simulation event this wire event carries; built outside the tick when absent (authResult...). */
  readonly from?: K;
}

/**
 * A server event. With `from`, the simulation's event data must fit this schema's payload exactly: the
 * compiler refuses a drift between ecs/ (which may not import net/) and the wire shape.
 */
export function serverEvent<S extends z.ZodType, K extends SimEventKind | undefined = undefined>(
  spec: ServerEventSpec<S, K> &
    (K extends SimEventKind
      ? Fits<SimEventData[K], z.output<S>> extends true
        ? unknown
        : { from: `the data of ${K} differs from this schema` }
      : unknown),
): ServerEventSpec<S, K> {
  return spec;
}
