import { z } from 'zod';
import type { SimEventData } from '../../ecs/core/events.ts';
import { type Exact, serverEvent } from '../../ecs/core/faces/wire.ts';

/**
 * Compile-time checks of `Exact`, the one rule that keeps a simulation event's data and its wire schema
 * the same shape. Checked by `npm run typecheck` (not run by vitest): each `@ts-expect-error` must stay an
 * error, or the unused directive fails the typecheck.
 */

const yes = <T extends true>(): T => true as T;

// The same shape, and a narrower data (fewer enum members) than the payload: both fit.
yes<Exact<{ a: number; b: 'x' }, { a: number; b: 'x' | 'y' }>>();
yes<Exact<{ list: { id: string }[] }, { list: { id: string }[] }>>();
yes<Exact<{ id: string; killerId: string | null }, { id: string; killerId: string | null }>>();
yes<Exact<{ ok: true; v: number } | { ok: false }, { ok: true; v: number } | { ok: false }>>();
yes<Exact<SimEventData['teleportDone'], { x: number; z: number }>>();

// A field the simulation adds and the schema lacks (zod would strip it on the way to clients).
// @ts-expect-error the payload has no `y`
yes<Exact<{ x: number; y: number }, { x: number }>>();
// A field the schema has and the simulation never sends.
// @ts-expect-error the data has no `y`
yes<Exact<{ x: number }, { x: number; y?: number }>>();
// The same drift one level down, inside an array of objects.
// @ts-expect-error items[] has an extra `slot`
yes<Exact<{ items: { id: string; slot: number }[] }, { items: { id: string }[] }>>();
// A wider data than the payload (a code the wire does not know).
// @ts-expect-error 'z' is not a payload value
yes<Exact<{ code: 'x' | 'z' }, { code: 'x' | 'y' }>>();

// And through serverEvent's `from`: teleportDone's data is { x, z }.
serverEvent({ schema: z.object({ x: z.number(), z: z.number() }), doc: '', from: 'teleportDone' });
const withY = z.object({ x: z.number(), z: z.number(), y: z.number() });
// @ts-expect-error the schema has a `y` the simulation does not send
serverEvent({ schema: withY, doc: '', from: 'teleportDone' });
