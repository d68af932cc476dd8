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

/** What a worker reports to the main thread every second. */
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
}

export interface WorkerInit {
  url: string;
  firstBot: number;
  bots: number;
  /** Bots this worker connects per second. */
  rampPerSecond: number;
  scenario: 'spread' | 'hotspot';
  tickMs: number;
  moveEveryMin: number;
  moveEveryMax: number;
  chatChance: number;
  spreadRadius: number;
  hotspotSize: number;
}
