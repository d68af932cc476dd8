import { Packr, unpack } from 'msgpackr';
import { jsonTextDepth, MAX_JSON_DEPTH, msgpackDepth, TOO_DEEP } from '../../lib/json-limits.ts';
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
  const bytes = data instanceof Uint8Array ? data : new Uint8Array(data);
  // Measured on the bytes before anything parses them: unpack (and every later encode) recurses per level.
  const refused = isBinary ? msgpackRefusal(bytes) : jsonTextDepth(bytes) > MAX_JSON_DEPTH ? TOO_DEEP : null;
  if (refused !== null) {
    return { ok: false, message: `frame is ${refused}`, event: peekEventName(bytes, isBinary) };
  }
  let raw: unknown;
  try {
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

function msgpackRefusal(bytes: Uint8Array): string | null {
  const scan = msgpackDepth(bytes);
  if (!scan.ok) return 'not plain MessagePack (extension types are not accepted)';
  return scan.depth > MAX_JSON_DEPTH ? TOO_DEEP : null;
}

const MAX_PEEKED_NAME = 128;

/**
 * The event name of a frame that is not parsed (too deep): the string at the start of `[event, ...`,
 * read without parsing the rest. Null when the frame does not start that way.
 */
function peekEventName(bytes: Uint8Array, isBinary: boolean): string | null {
  if (isBinary) {
    const b = bytes[0] ?? 0;
    const at = b >= 0x91 && b <= 0x9f ? 1 : b === 0xdc ? 3 : b === 0xdd ? 5 : -1;
    if (at < 0) return null;
    const s = bytes[at] ?? 0;
    const [start, len] =
      s >= 0xa0 && s <= 0xbf ? [at + 1, s & 0x1f] : s === 0xd9 ? [at + 2, bytes[at + 1] ?? 0] : [-1, 0];
    if (start < 0 || start + len > bytes.length) return null;
    return Buffer.from(bytes.buffer, bytes.byteOffset + start, Math.min(len, MAX_PEEKED_NAME)).toString(
      'utf8',
    );
  }
  const head = Buffer.from(bytes.buffer, bytes.byteOffset, Math.min(bytes.length, 2 * MAX_PEEKED_NAME + 8));
  const literal = /^\s*\[\s*("(?:[^"\\]|\\.)*")/.exec(head.toString('utf8'))?.[1];
  if (literal === undefined) return null;
  try {
    return (JSON.parse(literal) as string).slice(0, MAX_PEEKED_NAME);
  } catch {
    return null;
  }
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

/** Told of a payload that could not be encoded for a connection: it is dropped for that connection. */
export type EncodeFailure = (event: string, err: unknown) => void;

/**
 * encodeRaw that never throws: a payload too deep for the encoder's recursion, circular, or holding a
 * value the encoding cannot carry gives undefined, and `failed` is told. Encoding runs in the tick,
 * where a throw would stop the world for everyone (packr's state is reset by its own finally).
 */
export function encodeOrDrop(
  encoding: Encoding,
  event: string,
  payload: unknown,
  failed: EncodeFailure,
): Uint8Array | string | undefined {
  try {
    return encodeRaw(encoding, event, payload);
  } catch (err) {
    failed(event, err);
    return undefined;
  }
}
