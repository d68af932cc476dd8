import type { SimEvent } from '../../ecs/core/events.ts';
import type { GameWorld } from '../../ecs/core/world.ts';
import { type Encoding, encodeRaw } from '../protocol/codec.ts';
import {
  type ServerEventName,
  type ServerPayload,
  toWire,
  type WireEvent,
} from '../protocol/server-events.ts';
import type { FragmentCache } from '../replication/encode.ts';
import type { FrameSegments } from '../replication/msgpack-entity.ts';
import type { ObserverDelta } from '../replication/observer.ts';
import type { Replicator } from '../replication/replicator.ts';
import { buildPlayerSync } from './player-sync.ts';

/**
 * After a tick: turn its outcomes into wire events per player. Order per player: the tick's events in
 * emission order, then world:update (when something in view changed), then player:sync (when marked).
 * Events tell what happened during the tick (a hit to 0 health, a death); world:update and player:sync
 * carry the state at its end, so a client that applies them in order is left in the tick's final state
 * (a player killed and respawned in one tick shows full health, to itself and to those who see it).
 */

/** A frame already encoded in a connection's encoding (string = text frame, bytes = binary). */
export type Frame = Uint8Array | string;
/** What sendBatch takes: frames, or a binary frame as segments of shared memory (read at once). */
export type BatchFrame = Frame | FrameSegments;

/** What deliverTick needs of a connection: its encoding, and ideally a way to write a tick in one go. */
export interface DeliveryConnection {
  readonly encoding: Encoding;
  /**
   * All of this tick's frames for the connection, in order, as one write (net/thread RemoteConnection).
   * Segments (a world:update from a shared arena) come only to connections that copy frames.
   */
  sendBatch?(frames: readonly BatchFrame[]): void;
  /** sendBatch copies the bytes before it returns (uWS does): its frames may be reused scratch views. */
  readonly copiesFrames?: boolean;
}

/**
 * How a tick reaches connected characters. net/session/registry.ts's SessionRegistry satisfies it as is
 * (send, sendRaw, connection(id)). With connection (and sendBatch or sendRaw) frames are encoded here,
 * once per distinct content, and a character's frames of the tick leave in one batch.
 */
export interface Delivery {
  /** Encode and send one event; no-op when not connected. May return the bytes written (a number). */
  send(characterId: string, event: ServerEventName, payload: ServerPayload<ServerEventName>): unknown;
  /** A frame already encoded in the connection's encoding (used when the connection has no sendBatch). */
  sendRaw?(characterId: string, frame: Frame): void;
  /** The character's connection; undefined when not connected. */
  connection?(characterId: string): DeliveryConnection | undefined;
  /**
   * A payload for this character could not be encoded: it was dropped for that connection and the tick
   * goes on (the composition root logs and counts it).
   */
  encodeFailed?(characterId: string, event: string, err: unknown): void;
}

export interface DeliveryStats {
  messages: number;
  /** Bytes of frames encoded here (pre-encoded world:update) plus what send() reported. */
  bytes: number;
}

/** A connected character's frames of this tick, written in one batch at the end of delivery. */
export interface Outbox {
  readonly characterId: string;
  readonly conn: DeliveryConnection;
  readonly frames: BatchFrame[];
  /** A world:update encoded only at flush, into a reused buffer (copiesFrames), at frames[updateAt]. */
  update: ObserverDelta | null;
  updateAt: number;
}

const frameBytes = (f: BatchFrame) =>
  typeof f === 'string' ? Buffer.byteLength(f) : f instanceof Uint8Array ? f.length : f.bytes;

/** A tick's messages, encoded and grouped per connection, not yet written (see flushTick). */
export interface PreparedTick {
  readonly stats: DeliveryStats;
  readonly cache: FragmentCache;
  readonly outboxes: ReadonlyMap<string, Outbox | null>;
  readonly delivery: Delivery;
}

/**
 * The events of a command applied between ticks (a private message and its echo): sent at once, each
 * through the character's connection (an encoding failure is reported there and the rest go on).
 */
export function deliverEvents(events: readonly SimEvent[], delivery: Delivery): void {
  for (const e of events) {
    const w = toWire(e);
    delivery.send(e.to, w.event, w.payload);
  }
}

/** The whole delivery of a tick: prepareTick then flushTick. */
export function deliverTick(world: GameWorld, replicator: Replicator, delivery: Delivery): DeliveryStats {
  const prepared = prepareTick(world, replicator, delivery);
  flushTick(prepared);
  return prepared.stats;
}

/**
 * Replication and encoding of a tick: every message for a connected character is encoded and queued in
 * its outbox; events for characters without a pre-encoded path go through delivery.send() right away.
 */
export function prepareTick(world: GameWorld, replicator: Replicator, delivery: Delivery): PreparedTick {
  const stats: DeliveryStats = { messages: 0, bytes: 0 };
  const sendPayload = (to: string, event: ServerEventName, payload: ServerPayload<ServerEventName>) => {
    stats.messages++;
    const bytes = delivery.send(to, event, payload);
    if (typeof bytes === 'number') stats.bytes += bytes;
  };
  // null: not connected, or no pre-encoded path: the event goes through send() as an object.
  const outboxes = new Map<string, Outbox | null>();
  const outbox = (characterId: string): Outbox | null => {
    let o = outboxes.get(characterId);
    if (o === undefined) {
      const conn = delivery.connection?.(characterId);
      o =
        conn && (conn.sendBatch || delivery.sendRaw)
          ? { characterId, conn, frames: [], update: null, updateAt: 0 }
          : null;
      outboxes.set(characterId, o);
    }
    return o;
  };
  const queue = (o: Outbox, frame: Frame) => {
    o.frames.push(frame);
    stats.messages++;
    stats.bytes += frameBytes(frame);
  };
  // A payload that cannot be encoded is dropped for that connection and reported; the tick goes on.
  const queueEncoded = (o: Outbox, event: string, encode: () => Frame) => {
    let frame: Frame;
    try {
      frame = encode();
    } catch (err) {
      delivery.encodeFailed?.(o.characterId, event, err);
      return;
    }
    queue(o, frame);
  };

  // An event whose data object goes to many players (local chat) is encoded once per encoding; one whose
  // data is frozen (a value that recurs, as run energy's percents) once for good.
  const frames = new Map<object, SharedFrame>();
  for (const e of world.events) {
    const o = outbox(e.to);
    if (!o) {
      const w = toWire(e);
      sendPayload(e.to, w.event, w.payload);
      continue;
    }
    let f = frames.get(e.data);
    if (f === undefined) {
      f = Object.isFrozen(e.data) ? constantFrame(e) : { wire: toWire(e) };
      frames.set(e.data, f);
    }
    const frame = sharedFrame(f, o.conn.encoding);
    if (frame === null) delivery.encodeFailed?.(o.characterId, f.wire.event, f.error);
    else queue(o, frame);
  }
  const { cache } = replicator;
  for (const d of replicator.collect()) {
    const o = outbox(d.characterId);
    if (o?.conn.sendBatch && o.conn.copiesFrames) {
      o.update = d;
      o.updateAt = o.frames.length;
      stats.messages++;
    } else if (o) queueEncoded(o, 'world:update', () => cache.encode(d, o.conn.encoding));
    else sendPayload(d.characterId, 'world:update', cache.payload(d));
  }
  // Last: the player's own state at the end of the tick has the final word.
  for (const p of world.players.values()) {
    if (!p.syncDirty) continue;
    p.syncDirty = false;
    const o = outbox(p.characterId);
    const sync = buildPlayerSync(world, p);
    if (o) queueEncoded(o, 'player:sync', () => encodeRaw(o.conn.encoding, 'player:sync', sync));
    else sendPayload(p.characterId, 'player:sync', sync);
  }
  return { stats, cache, outboxes, delivery };
}

/** An event's frames, encoded at most once per encoding; null: it could not be (`error` says why). */
interface SharedFrame {
  wire: WireEvent;
  msgpack?: Uint8Array | null;
  json?: string | null;
  error?: unknown;
}

/** Frames of frozen event data, kept while the data object lives. */
const constantFrames = new WeakMap<object, SharedFrame>();

function constantFrame(e: SimEvent): SharedFrame {
  const wire = toWire(e);
  const kept = constantFrames.get(e.data);
  // Frozen data is one event's payload; should another event ever send the same object, it gets its own.
  if (kept?.wire.event === wire.event) return kept;
  const f: SharedFrame = { wire };
  constantFrames.set(e.data, f);
  return f;
}

function sharedFrame(f: SharedFrame, encoding: Encoding): Frame | null {
  const done = encoding === 'json' ? f.json : f.msgpack;
  if (done !== undefined) return done;
  let frame: Frame | null = null;
  try {
    frame = encodeRaw(encoding, f.wire.event, f.wire.payload);
  } catch (err) {
    f.error = err;
  }
  if (encoding === 'json') f.json = frame as string | null;
  else f.msgpack = frame as Uint8Array | null;
  return frame;
}

/** The socket writes of a tick: one batch (one write) per connection, in the order queued. */
export function flushTick({ stats, cache, outboxes, delivery }: PreparedTick): void {
  for (const o of outboxes.values()) {
    if (o === null) continue;
    if (o.update !== null) {
      // Encoded now, into the cache's scratch (or as segments of its shared arena), and read by
      // sendBatch before the next one overwrites it.
      // One that cannot be encoded is dropped for this connection, and reported; the others still leave.
      try {
        const frame = cache.encodeForBatch(o.update, o.conn.encoding);
        stats.bytes += frameBytes(frame);
        o.frames.splice(o.updateAt, 0, frame);
      } catch (err) {
        delivery.encodeFailed?.(o.characterId, 'world:update', err);
      }
      o.update = null;
    }
    if (o.frames.length === 0) continue;
    if (o.conn.sendBatch) o.conn.sendBatch(o.frames);
    else for (const f of o.frames) delivery.sendRaw?.(o.characterId, f as Frame);
  }
}
