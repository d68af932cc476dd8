import { pack, unpack } from 'msgpackr';

/** Framing of contract §1.1 for the bots: msgpack `[event, payload]`, no shared state between frames. */

export function encode(event: string, payload: object): Buffer {
  return pack([event, payload]);
}

export function decode(data: Buffer | ArrayBuffer | Buffer[]): [string, Record<string, unknown>] | null {
  const buf = Array.isArray(data) ? Buffer.concat(data) : Buffer.isBuffer(data) ? data : Buffer.from(data);
  try {
    const msg = unpack(buf) as unknown;
    if (Array.isArray(msg) && typeof msg[0] === 'string') return msg as [string, Record<string, unknown>];
  } catch {
    // not msgpack: ignore
  }
  return null;
}

/** The event name of a msgpack `[event, payload]` frame, without decoding the payload. */
export function eventOf(buf: Buffer): string {
  if (buf[0] !== 0x92) return '';
  const h = buf[1] as number;
  if ((h & 0xe0) === 0xa0) return buf.toString('utf8', 2, 2 + (h & 0x1f));
  if (h === 0xd9) return buf.toString('utf8', 3, 3 + (buf[2] as number));
  return '';
}

const WORLD_UPDATE = Buffer.from('world:update');

/**
 * True when a frame is `["world:update", ...]`, read from its first bytes without decoding the rest:
 * fixarray(2) 0x92, then the event name as a fixstr (0xa0 | len) or str8 (0xd9, len), then its bytes.
 */
export function isWorldUpdate(buf: Buffer): boolean {
  if (buf.length < 2 + WORLD_UPDATE.length || buf[0] !== 0x92) return false;
  let at: number;
  if (buf[1] === (0xa0 | WORLD_UPDATE.length)) at = 2;
  else if (buf[1] === 0xd9 && buf[2] === WORLD_UPDATE.length) at = 3;
  else return false;
  return (
    buf.length >= at + WORLD_UPDATE.length && WORLD_UPDATE.equals(buf.subarray(at, at + WORLD_UPDATE.length))
  );
}

/**
 * Whether bot `index` (over all workers) is a latency probe, for a probe share in 0..1: spread evenly,
 * exactly floor(bots * share) of the first `bots` indexes.
 */
export function isProbe(index: number, share: number): boolean {
  return Math.floor((index + 1) * share) > Math.floor(index * share);
}

/** What a worker reports to the main thread every second. */
/** Combat bots' counters in a WorkerReport (scenario `combat`): what they did and saw. */
export const COMBAT_COUNTS = [
  'attacks',
  'eats',
  'loots',
  'kills',
  'died',
  'ownHits',
  'hitsSeen',
  'deathsSeen',
] as const;

export interface WorkerReport {
  type: 'report';
  connected: number;
  inWorld: number;
  failed: number;
  /** move -> own entity moved latencies (ms) since the last report. */
  latencies: number[];
  messagesIn: number;
  bytesIn: number;
  errors: Record<string, number>;
  /** Combat bots (scenario `combat`): what they did and saw since the last report. */
  attacks?: number;
  eats?: number;
  loots?: number;
  kills?: number;
  died?: number;
  /** combat:hit events of their own fights. */
  ownHits?: number;
  /** Hits and deaths world:update showed on entities in their view. */
  hitsSeen?: number;
  deathsSeen?: number;
}

export interface WorkerInit {
  url: string;
  firstBot: number;
  bots: number;
  /** Bots this worker connects per second. */
  rampPerSecond: number;
  scenario: 'spread' | 'hotspot' | 'combat';
  tickMs: number;
  moveEveryMin: number;
  moveEveryMax: number;
  chatChance: number;
  spreadRadius: number;
  hotspotSize: number;
  /** Share of bots (0..1) that decode every world:update and measure latency; see isProbe. */
  probes: number;
}
