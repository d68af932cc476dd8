import { unpack } from 'msgpackr';
import { describe, expect, it } from 'vitest';
import type { SimEvent } from '../../ecs/core/events.ts';
import { populateWorld } from '../../ecs/core/populate.ts';
import { SKILLS } from '../../ecs/core/skills.ts';
import { setRunEnergy } from '../../ecs/features/movement/run-energy.ts';
import type { Encoding } from '../../net/protocol/codec.ts';
import { type ServerEventName, serverEvents, toWire } from '../../net/protocol/server-events.ts';
import { WIRE_EQUIP_SLOTS } from '../../net/protocol/shared.ts';
import { Replicator } from '../../net/replication/replicator.ts';
import { type Delivery, deliverTick, type Frame } from '../../net/session/outbound.ts';
import { testContent } from '../helpers/sim-content.ts';
import { Scenario } from './harness.ts';

type Sent = { to: string; event: string; payload: unknown };

/** A delivery that records what it is given; with an encoding it takes pre-encoded world:update frames. */
function recorder(encoding?: Encoding): Delivery & { sent: Sent[] } {
  const sent: Sent[] = [];
  const d: Delivery & { sent: Sent[] } = {
    sent,
    send(to, event, payload) {
      sent.push({ to, event, payload });
      return undefined;
    },
  };
  if (encoding) {
    d.connection = () => ({ encoding });
    d.sendRaw = (to, frame) => {
      const [event, payload] =
        typeof frame === 'string' ? JSON.parse(frame) : (unpack(frame as Uint8Array) as [string, unknown]);
      sent.push({ to, event, payload });
    };
  }
  return d;
}

function validate(sent: Sent[]): void {
  for (const s of sent) {
    const schema = serverEvents[s.event as ServerEventName];
    expect(schema, s.event).toBeDefined();
    expect(schema.parse(s.payload)).toEqual(s.payload);
  }
}

describe('outbound: a tick as wire events', () => {
  for (const encoding of [undefined, 'msgpack', 'json'] as const) {
    it(`delivers the tick's events, then world:update, then player:sync, all valid against the protocol (${encoding ?? 'objects'})`, () => {
      const s = new Scenario();
      populateWorld(s.world);
      const replicator = new Replicator(s.world);
      const delivery = recorder(encoding);
      s.afterTick.push((w) => deliverTick(w, replicator, delivery));
      const a = s.addPlayer({
        name: 'Alice',
        x: 100,
        z: 100,
        coins: 25,
        inventory: [{ itemId: 'logs', quantity: 1 }],
      });
      const b = s.addPlayer({ name: 'Bob', x: 104, z: 100 });
      s.push({ type: 'move', characterId: a, x: 110, z: 100, run: false });
      s.push({ type: 'chat', characterId: a, message: 'hi all' });
      s.push({ type: 'chat', characterId: b, message: 'psst', to: 'alice' });
      s.push({ type: 'move', characterId: b, x: 999, z: 100, run: false, origin: 'player:move' });
      s.step(5, 1_700_000_000_000);
      validate(delivery.sent);

      const forA = delivery.sent.filter((m) => m.to === a).map((m) => m.event);
      // The tick Alice entered: her entering events (prayer:state, social:list), the view, her state last.
      const first = forA.slice(0, forA.indexOf('player:sync') + 1);
      expect(first.slice(-2)).toEqual(['world:update', 'player:sync']);
      expect(first.slice(0, -2).length).toBeGreaterThan(0);
      const sync = delivery.sent.find((m) => m.to === a && m.event === 'player:sync')?.payload as {
        skills: object;
        inventory: unknown[];
        equipment: object;
        coins: number;
        combatLevel: number;
      };
      expect(Object.keys(sync.skills).sort()).toEqual([...SKILLS].sort());
      expect(sync.inventory).toHaveLength(28);
      expect(sync.inventory[0]).toEqual({ itemId: 'logs', quantity: 1 });
      expect(Object.keys(sync.equipment).sort()).toEqual([...WIRE_EQUIP_SLOTS].sort());
      expect([sync.coins, sync.combatLevel]).toEqual([25, 3]);
      // player:sync only when marked: once on entering here.
      expect(forA.filter((e) => e === 'player:sync')).toHaveLength(1);

      const chats = delivery.sent.filter((m) => m.event === 'chat:message');
      const tick = s.world.tick - 4;
      expect(chats).toContainEqual({
        to: b,
        event: 'chat:message',
        payload: {
          fromId: a,
          fromName: 'Alice',
          message: 'hi all',
          channel: 'local',
          timestamp: 1_700_000_000_000 + (tick - 1) * 600,
        },
      });
      expect(chats.filter((m) => (m.payload as { channel: string }).channel === 'private')).toHaveLength(2);
      expect(delivery.sent).toContainEqual({
        to: b,
        event: 'error',
        payload: { code: 'TOO_FAR', message: expect.any(String), event: 'player:move' },
      });
      // Alice's own move reaches Alice and Bob as world:update entries.
      const moved = delivery.sent.filter(
        (m) =>
          m.event === 'world:update' &&
          (m.payload as { entities: { id: string; x: number }[] }).entities.some(
            (e) => e.id === a && e.x === 102,
          ),
      );
      expect(moved.map((m) => m.to).sort()).toEqual([a, b].sort());
    });
  }

  it('maps every simulation event kind to its wire event with a valid payload', () => {
    const s = new Scenario();
    s.world.nowMs = 1234.4;
    const offer = {
      items: [{ tradeSlot: 0, inventorySlot: 3, itemId: 'logs', quantity: 1 }],
      coins: 5,
      accepted: false,
    };
    const events: SimEvent[] = [
      { to: 'x', kind: 'error', data: { code: 'NOT_FOUND', message: 'm', event: null } },
      {
        to: 'x',
        kind: 'chat',
        data: { fromId: 'a', fromName: 'A', message: 'hi', channel: 'system', timestamp: 1234 },
      },
      { to: 'x', kind: 'skillXp', data: { skill: 'mining', xp: 50, gained: 25, level: 1 } },
      {
        to: 'x',
        kind: 'combatHit',
        data: { attackerId: 'a', targetId: 'b', damage: 2, targetHealth: 8, tick: 3, style: 'melee' },
      },
      { to: 'x', kind: 'bankUpdate', data: { items: [{ itemId: 'logs', quantity: 4 }] } },
      {
        to: 'x',
        kind: 'tradeIncoming',
        data: { tradeId: 't', fromPlayerId: 'a', fromPlayerName: 'A', fromPlayerLevel: 3 },
      },
      {
        to: 'x',
        kind: 'tradeStarted',
        data: { tradeId: 't', partnerId: 'a', partnerName: 'A', partnerLevel: 3, partnerFreeSlots: 28 },
      },
      {
        to: 'x',
        kind: 'tradeUpdated',
        data: { tradeId: 't', myOffer: offer, theirOffer: offer, partnerFreeSlots: 2 },
      },
      {
        to: 'x',
        kind: 'tradeConfirmScreen',
        data: { tradeId: 't', myOffer: offer, theirOffer: offer, values: { myOffer: 15, theirOffer: 15 } },
      },
      {
        to: 'x',
        kind: 'tradeCompleted',
        data: { tradeId: 't', receivedItems: [{ itemId: 'logs', quantity: 1 }] },
      },
      { to: 'x', kind: 'tradeCancelled', data: { tradeId: 't', reason: 'declined' } },
      { to: 'x', kind: 'tradeError', data: { code: 'TOO_FAR', message: 'm' } },
    ];
    const wire = events.map((e) => toWire(e));
    expect(wire.map((w) => w.event)).toEqual([
      'error',
      'chat:message',
      'skill:xp',
      'combat:hit',
      'bank:update',
      'tradeIncoming',
      'tradeStarted',
      'tradeUpdated',
      'tradeConfirmScreen',
      'tradeCompleted',
      'tradeCancelled',
      'tradeError',
    ]);
    validate(wire.map((w) => ({ to: 'x', ...w })));
    expect(wire[1]?.payload).toMatchObject({ timestamp: 1234 });
  });

  it('a frozen payload (a run energy percent) is encoded once: later ticks send the very same frame', () => {
    const s = new Scenario({ content: testContent({ npcSpawns: [] }) });
    const replicator = new Replicator(s.world);
    const sent: { to: string; tick: number; frame: Frame }[] = [];
    const delivery: Delivery = {
      send: () => undefined,
      connection: () => ({ encoding: 'msgpack' }),
      sendRaw: (to, frame) => {
        sent.push({ to, tick: s.world.tick, frame });
      },
    };
    s.afterTick.push((w) => deliverTick(w, replicator, delivery));
    const a = s.addPlayer({ name: 'Ann', x: 20, z: 50 });
    const b = s.addPlayer({ name: 'Ben', x: 20, z: 52 });
    // 0.01 % below 50 %: one tick of rest (0.08 % at agility 1) tells each of them 50.
    setRunEnergy(s.world, s.player(a), 4_999);
    s.step();
    setRunEnergy(s.world, s.player(b), 4_999);
    s.step();
    const fifty = sent.filter((m) => {
      const [event, payload] = unpack(m.frame as Uint8Array) as [string, { runEnergy?: number }];
      return event === 'player:energy' && payload.runEnergy === 50;
    });
    expect(fifty.map((m) => m.to)).toEqual([a, b]);
    expect(fifty[1]?.tick).toBeGreaterThan(fifty[0]?.tick as number);
    expect(fifty[1]?.frame).toBe(fifty[0]?.frame);
  });
});
