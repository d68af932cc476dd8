import type { SimEvent, SimEventKind } from '../../ecs/events.ts';
import type { GameWorld } from '../../ecs/world.ts';
import { type Encoding, encodeRaw } from '../protocol/codec.ts';
import type { ServerEventName, ServerPayload } from '../protocol/server-events.ts';
import type { Replicator } from '../replication/replicator.ts';
import { buildPlayerSync } from './player-sync.ts';

/**
 * After a tick: turn its outcomes into wire events per player. Order per player: player:sync (when
 * marked), world:update (when something in view changed), then the tick's events in emission order.
 */

/**
 * How a tick reaches connected characters. net/session/registry.ts's SessionRegistry satisfies it as is
 * (send, sendRaw, connection(id).encoding); with sendRaw and connection, world:update frames are encoded
 * here once per distinct content instead of once per socket.
 */
export interface Delivery {
  /** Encode and send one event; no-op when not connected. May return the bytes written (a number). */
  send(characterId: string, event: ServerEventName, payload: ServerPayload<ServerEventName>): unknown;
  /** A frame already encoded in the connection's encoding. */
  sendRaw?(characterId: string, frame: Uint8Array | string): void;
  /** The character's connection (for its encoding); undefined when not connected. */
  connection?(characterId: string): { readonly encoding: Encoding } | undefined;
}

export interface DeliveryStats {
  messages: number;
  /** Bytes of frames encoded here (pre-encoded world:update) plus what send() reported. */
  bytes: number;
}

const WIRE_NAMES: { [K in SimEventKind]: ServerEventName } = {
  error: 'error',
  chat: 'chat:message',
  skillXp: 'skill:xp',
  combatHit: 'combat:hit',
  bankUpdate: 'bank:update',
  tradeIncoming: 'tradeIncoming',
  tradeStarted: 'tradeStarted',
  tradeUpdated: 'tradeUpdated',
  tradeConfirmScreen: 'tradeConfirmScreen',
  tradeCompleted: 'tradeCompleted',
  tradeCancelled: 'tradeCancelled',
  tradeError: 'tradeError',
};

export interface WireEvent {
  event: ServerEventName;
  payload: ServerPayload<ServerEventName>;
}

/** A simulation event as its wire event (contract §2.2). */
export function toWire(world: GameWorld, e: SimEvent): WireEvent {
  const event = WIRE_NAMES[e.kind];
  if (e.kind === 'chat') return { event, payload: { ...e.data, timestamp: Math.round(world.nowMs) } };
  return { event, payload: e.data as ServerPayload<ServerEventName> };
}

export function deliverTick(world: GameWorld, replicator: Replicator, delivery: Delivery): DeliveryStats {
  const stats: DeliveryStats = { messages: 0, bytes: 0 };
  const sendPayload = (to: string, event: ServerEventName, payload: ServerPayload<ServerEventName>) => {
    stats.messages++;
    const bytes = delivery.send(to, event, payload);
    if (typeof bytes === 'number') stats.bytes += bytes;
  };
  for (const p of world.players.values()) {
    if (!p.syncDirty) continue;
    p.syncDirty = false;
    sendPayload(p.characterId, 'player:sync', buildPlayerSync(world, p));
  }
  const { cache } = replicator;
  for (const d of replicator.collect()) {
    const encoding = delivery.sendRaw ? delivery.connection?.(d.characterId)?.encoding : undefined;
    if (encoding !== undefined && delivery.sendRaw) {
      const frame = cache.encode(d, encoding);
      delivery.sendRaw(d.characterId, frame);
      stats.messages++;
      stats.bytes += typeof frame === 'string' ? Buffer.byteLength(frame) : frame.length;
    } else {
      sendPayload(d.characterId, 'world:update', cache.payload(d));
    }
  }
  // An event whose data object goes to many players (local chat) is encoded once per encoding.
  const frames = new Map<object, { wire: WireEvent; msgpack?: Uint8Array; json?: string }>();
  for (const e of world.events) {
    const encoding = delivery.sendRaw ? delivery.connection?.(e.to)?.encoding : undefined;
    if (encoding === undefined || !delivery.sendRaw) {
      const w = toWire(world, e);
      sendPayload(e.to, w.event, w.payload);
      continue;
    }
    let f = frames.get(e.data);
    if (f === undefined) {
      f = { wire: toWire(world, e) };
      frames.set(e.data, f);
    }
    let frame: Uint8Array | string;
    if (encoding === 'json') frame = f.json ??= encodeRaw('json', f.wire.event, f.wire.payload) as string;
    else frame = f.msgpack ??= encodeRaw('msgpack', f.wire.event, f.wire.payload) as Uint8Array;
    delivery.sendRaw(e.to, frame);
    stats.messages++;
    stats.bytes += typeof frame === 'string' ? Buffer.byteLength(frame) : frame.length;
  }
  return stats;
}
