import { Packr } from 'msgpackr';
import type { GameWorld } from '../../ecs/world.ts';
import type { Encoding } from '../protocol/codec.ts';
import { changedEntity, fullEntity, type WireEntity } from './entity-fields.ts';
import type { ObserverDelta } from './observer.ts';

/**
 * Encodes world:update frames without re-encoding the same entity for every observer: each entity's
 * entry (full or changed) is built and encoded at most once per tick and encoding, and an observer's
 * frame is those fragments concatenated behind a hand-written header. The result is an ordinary
 * self-describing frame (stock msgpackr unpack / JSON.parse give `["world:update", {...}]`).
 */

// Same options as net/protocol/codec.ts: plain maps, no records, no shared state between frames.
const packr = new Packr({ useRecords: false, moreTypes: false });

interface Fragment {
  entity: WireEntity;
  mp?: Uint8Array;
  json?: string;
}

export interface WorldUpdatePayload {
  tick: number;
  entities: WireEntity[];
  removed: string[];
}

export class FragmentCache {
  private tick = -1;
  private readonly full = new Map<number, Fragment>();
  private readonly delta = new Map<number, Fragment>();
  private mpHead: Uint8Array | null = null;
  private static readonly mpRemovedKey = packr.pack('removed');

  constructor(private readonly world: GameWorld) {}

  private sync(): void {
    if (this.tick === this.world.tick) return;
    this.tick = this.world.tick;
    this.full.clear();
    this.delta.clear();
    this.mpHead = null;
  }

  private fragment(eid: number, entered: boolean): Fragment {
    this.sync();
    const map = entered ? this.full : this.delta;
    let f = map.get(eid);
    if (f === undefined) {
      f = { entity: entered ? fullEntity(this.world, eid) : changedEntity(this.world, eid) };
      map.set(eid, f);
    }
    return f;
  }

  /** The payload as an object (tests, and deliveries without a pre-encoded path). */
  payload(d: ObserverDelta): WorldUpdatePayload {
    const entities: WireEntity[] = [];
    for (const eid of d.entered) entities.push(this.fragment(eid, true).entity);
    for (const eid of d.changed) entities.push(this.fragment(eid, false).entity);
    return { tick: this.world.tick, entities, removed: d.removed };
  }

  encode(d: ObserverDelta, encoding: Encoding): Uint8Array | string {
    return encoding === 'json' ? this.encodeJson(d) : this.encodeMsgpack(d);
  }

  private encodeJson(d: ObserverDelta): string {
    const parts: string[] = [];
    for (const eid of d.entered) {
      const f = this.fragment(eid, true);
      f.json ??= JSON.stringify(f.entity);
      parts.push(f.json);
    }
    for (const eid of d.changed) {
      const f = this.fragment(eid, false);
      f.json ??= JSON.stringify(f.entity);
      parts.push(f.json);
    }
    return `["world:update",{"tick":${this.world.tick},"entities":[${parts.join(',')}],"removed":${JSON.stringify(d.removed)}}]`;
  }

  private encodeMsgpack(d: ObserverDelta): Uint8Array {
    this.sync();
    // fixarray(2), "world:update", fixmap(3), "tick", <tick>, "entities"
    this.mpHead ??= Buffer.concat([
      Uint8Array.of(0x92),
      packr.pack('world:update'),
      Uint8Array.of(0x83),
      packr.pack('tick'),
      packr.pack(this.world.tick),
      packr.pack('entities'),
    ]);
    const n = d.entered.length + d.changed.length;
    const frags: Uint8Array[] = new Array(n);
    let size = 0;
    let i = 0;
    for (const eid of d.entered) {
      const f = this.fragment(eid, true);
      f.mp ??= packr.pack(f.entity);
      frags[i++] = f.mp;
      size += f.mp.length;
    }
    for (const eid of d.changed) {
      const f = this.fragment(eid, false);
      f.mp ??= packr.pack(f.entity);
      frags[i++] = f.mp;
      size += f.mp.length;
    }
    const header = arrayHeader(n);
    const removedKey = FragmentCache.mpRemovedKey;
    const removed = packr.pack(d.removed);
    const head = this.mpHead;
    const out = Buffer.allocUnsafe(head.length + header.length + size + removedKey.length + removed.length);
    let at = 0;
    out.set(head, at);
    at += head.length;
    out.set(header, at);
    at += header.length;
    for (const f of frags) {
      out.set(f, at);
      at += f.length;
    }
    out.set(removedKey, at);
    at += removedKey.length;
    out.set(removed, at);
    return out;
  }
}

function arrayHeader(n: number): Uint8Array {
  if (n < 16) return Uint8Array.of(0x90 | n);
  if (n < 0x10000) return Uint8Array.of(0xdc, n >> 8, n & 0xff);
  return Uint8Array.of(0xdd, (n >>> 24) & 0xff, (n >>> 16) & 0xff, (n >>> 8) & 0xff, n & 0xff);
}
