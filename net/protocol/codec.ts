import { Packr, unpack } from 'msgpackr';
import { type ClientMessage, clientEvents, isClientEventName } from './client-events.ts';
import type { ServerEventName, ServerPayload } from './server-events.ts';

/**
 * Framing of contract §1.1: one message = `[event, payload]`, msgpack in binary frames, JSON in text frames.
 * Frames are self-describing: no msgpackr structures or sequential state across messages.
 */

export type Encoding = 'msgpack' | 'json';

export const MAX_FRAME_BYTES = 64 * 1024;

// useRecords false: plain maps, decodable by a stock unpack() with no shared state.
const packr = new Packr({ useRecords: false, moreTypes: false });

export type DecodeResult =
  | { ok: true; message: ClientMessage }
  | { ok: false; message: string; event: string | null };

/** Decode and validate one client frame. Never throws. */
export function decodeClientFrame(data: ArrayBuffer | Uint8Array, isBinary: boolean): DecodeResult {
  let raw: unknown;
  try {
    const bytes = data instanceof Uint8Array ? data : new Uint8Array(data);
    raw = isBinary
      ? unpack(bytes)
      : JSON.parse(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8'));
  } catch {
    return {
      ok: false,
      message: isBinary ? 'frame is not valid MessagePack' : 'frame is not valid JSON',
      event: null,
    };
  }
  // Contract §6.1: `event` is the frame's event name whenever it has one, unknown names included.
  const named = Array.isArray(raw) && typeof raw[0] === 'string' ? (raw[0] as string) : null;
  if (!Array.isArray(raw) || raw.length !== 2 || named === null) {
    return { ok: false, message: 'a message is an array [event, payload]', event: named };
  }
  const [event, payload] = raw as [string, unknown];
  if (!isClientEventName(event))
    return { ok: false, message: `unknown event "${event.slice(0, 64)}"`, event };
  if (payload === null || typeof payload !== 'object' || Array.isArray(payload)) {
    return { ok: false, message: 'payload must be an object', event };
  }
  const parsed = clientEvents[event].safeParse(payload);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue && issue.path.length > 0 ? `${issue.path.join('.')}: ` : '';
    return {
      ok: false,
      message: `invalid payload: ${where}${issue?.message ?? 'does not match the schema'}`,
      event,
    };
  }
  return { ok: true, message: { event, payload: parsed.data } as ClientMessage };
}

/** Encode one server event in the connection's encoding. */
export function encodeServerEvent<E extends ServerEventName>(
  encoding: Encoding,
  event: E,
  payload: ServerPayload<E>,
): Uint8Array | string {
  return encoding === 'json' ? JSON.stringify([event, payload]) : packr.pack([event, payload]);
}

/** Encode any [event, payload] (for pre-built payloads such as replication deltas). */
export function encodeRaw(encoding: Encoding, event: string, payload: unknown): Uint8Array | string {
  return encoding === 'json' ? JSON.stringify([event, payload]) : packr.pack([event, payload]);
}
