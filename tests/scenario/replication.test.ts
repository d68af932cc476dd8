import { unpack } from 'msgpackr';
import { describe, expect, it } from 'vitest';
import { populateWorld } from '../../ecs/core/populate.ts';
import { spawnEntity } from '../../ecs/core/world.ts';
import { GROUND_ITEMS } from '../../ecs/features/ground-items/index.ts';
import { serverEvents } from '../../net/protocol/server-events.ts';
import { Replicator } from '../../net/replication/replicator.ts';
import { Scenario } from './harness.ts';
import { watchReplication } from './watch.ts';

const ids = (u: { entities: { id: string }[] } | undefined) => (u?.entities ?? []).map((e) => e.id);

describe('replication (contract §2.2 world:update)', () => {
  it('a player sees itself and what is in view on entering, with all public fields', () => {
    const s = new Scenario();
    const w = watchReplication(s);
    populateWorld(s.world);
    const a = s.addPlayer({ name: 'Alice', x: 100, z: 100 });
    const u = w.now(a);
    expect(serverEvents['world:update'].parse(u)).toEqual(u);
    const self = u?.entities.find((e) => e.id === a);
    expect(self).toEqual({
      id: a,
      type: 'player',
      x: 100,
      z: 100,
      name: 'Alice',
      level: 3,
      health: 100,
      maxHealth: 100,
      moving: 0,
    });
    // The banker stands 3 tiles away; the goblins ~20 away are within the default view of 24.
    const banker = u?.entities.find((e) => e.type === 'npc' && e.npcId === 'banker');
    expect(banker).toMatchObject({
      type: 'npc',
      name: 'Banker',
      level: 1,
      health: 10,
      maxHealth: 10,
      x: 103,
    });
    expect(u?.removed).toEqual([]);
  });

  it('another player enters view exactly when it comes within view distance, in every direction', () => {
    for (const [dx, dz] of [
      [1, 0],
      [-1, 0],
      [0, 1],
      [0, -1],
      [1, 1],
      [-1, 1],
    ] as const) {
      const s = new Scenario();
      const w = watchReplication(s);
      const view = s.world.viewDistance;
      const a = s.addPlayer({ name: 'Watcher', x: 100, z: 100 });
      const b = s.addPlayer({ name: 'Comer', x: 100 + dx * (view + 3), z: 100 + dz * (view + 3) });
      expect(ids(w.now(a))).toEqual([]);
      s.push({
        type: 'move',
        characterId: b,
        x: 100 + dx * (view + 1),
        z: 100 + dz * (view + 1),
        run: false,
      });
      s.step();
      expect(w.now(a)).toBeUndefined();
      s.push({ type: 'move', characterId: b, x: 100 + dx * view, z: 100 + dz * view, run: false });
      s.step();
      const u = w.now(a);
      expect(u?.entities).toEqual([
        expect.objectContaining({
          id: b,
          type: 'player',
          name: 'Comer',
          level: 3,
          health: 100,
          maxHealth: 100,
        }),
      ]);
      expect(u?.entities[0]).toMatchObject({ x: 100 + dx * view, z: 100 + dz * view });
    }
  });

  it('leaves view only beyond view distance + 2 (hysteresis), and is then removed once', () => {
    const s = new Scenario();
    const w = watchReplication(s);
    const view = s.world.viewDistance;
    const a = s.addPlayer({ name: 'Watcher', x: 100, z: 100 });
    const b = s.addPlayer({ name: 'Leaver', x: 100 + view, z: 100 });
    expect(ids(w.now(a))).toEqual([b]);
    s.push({ type: 'move', characterId: b, x: 100 + view + 2, z: 100, run: false });
    s.step();
    expect(w.now(a)?.entities).toEqual([{ id: b, type: 'player', x: 100 + view + 2, z: 100, moving: 0 }]);
    expect(w.now(a)?.removed).toEqual([]);
    // Back to the edge and out again: still known, no re-entry with all fields.
    s.push({ type: 'move', characterId: b, x: 100 + view + 1, z: 100, run: false });
    s.step();
    expect(w.now(a)?.entities).toEqual([{ id: b, type: 'player', x: 100 + view + 1, z: 100, moving: 0 }]);
    s.push({ type: 'move', characterId: b, x: 100 + view + 3, z: 100, run: false });
    s.step();
    expect(w.now(a)).toEqual({ tick: s.world.tick, entities: [], removed: [b] });
    s.push({ type: 'move', characterId: b, x: 100 + view + 8, z: 100, run: false });
    s.step(3);
    expect(w.updates(a).filter((u) => u.removed.includes(b))).toHaveLength(1);
    expect(w.updates(a).at(-1)?.tick).toBeLessThan(s.world.tick);
  });

  it('sends nothing about entities out of view, and no message when nothing in view changed', () => {
    const s = new Scenario();
    const w = watchReplication(s);
    const a = s.addPlayer({ name: 'Quiet', x: 20, z: 20 });
    const b = s.addPlayer({ name: 'Busy', x: 150, z: 150 });
    w.clear();
    s.push({ type: 'move', characterId: b, x: 170, z: 160, run: true });
    s.push({ type: 'chat', characterId: b, message: 'anyone?' });
    s.step(10);
    expect(w.updates(a)).toEqual([]);
    expect(w.updates(b).length).toBeGreaterThan(0);
    expect(w.updates(b).every((u) => !JSON.stringify(u).includes(a))).toBe(true);
  });

  it('a moving entity is sent with its tile and moving mode; one message per player per tick at most', () => {
    const s = new Scenario();
    const w = watchReplication(s);
    const a = s.addPlayer({ name: 'A', x: 100, z: 100 });
    const b = s.addPlayer({ name: 'B', x: 105, z: 100 });
    s.push({ type: 'move', characterId: b, x: 115, z: 100, run: true });
    s.step();
    expect(w.now(a)?.entities).toEqual([{ id: b, type: 'player', x: 109, z: 100, moving: 2 }]);
    s.step();
    expect(w.now(a)?.entities).toEqual([{ id: b, type: 'player', x: 113, z: 100, moving: 2 }]);
    s.step();
    expect(w.now(a)?.entities).toEqual([{ id: b, type: 'player', x: 115, z: 100, moving: 0 }]);
    s.step();
    expect(w.now(a)).toBeUndefined();
    const perTick = new Map<number, number>();
    for (const u of w.updates(a)) perTick.set(u.tick, (perTick.get(u.tick) ?? 0) + 1);
    expect([...perTick.values()].every((n) => n === 1)).toBe(true);
  });

  it('a player leaving the world is removed for those who saw it', () => {
    const s = new Scenario();
    const w = watchReplication(s);
    const a = s.addPlayer({ name: 'Stay', x: 100, z: 100 });
    const b = s.addPlayer({ name: 'Go', x: 101, z: 100 });
    s.push({ type: 'leave', characterId: b, reason: 'logout' });
    s.step();
    expect(w.now(a)).toEqual({ tick: s.world.tick, entities: [], removed: [b] });
    expect(w.replicator.observers.has(b)).toBe(false);
  });

  it('a ground item is seen by its owner only until it turns public, then by everyone in view', () => {
    const s = new Scenario();
    const w = watchReplication(s);
    const owner = s.addPlayer({ name: 'Owner', x: 100, z: 100 });
    const other = s.addPlayer({ name: 'Other', x: 102, z: 100 });
    const eid = spawnEntity(s.world, 'item', 'item-1', 101, 101);
    const publicAt = s.world.tick + 3;
    s.world.get(GROUND_ITEMS).byEid.set(eid, {
      eid,
      itemId: 'logs',
      quantity: 1,
      ownerId: owner,
      publicAtTick: publicAt,
      despawnAtTick: publicAt + 100,
    });
    s.step();
    expect(w.now(owner)?.entities).toEqual([
      { id: 'item-1', type: 'item', x: 101, z: 101, itemId: 'logs', quantity: 1 },
    ]);
    expect(w.now(other)).toBeUndefined();
    while (s.world.tick < publicAt - 1) s.step();
    expect(w.updates(other).some((u) => ids(u).includes('item-1'))).toBe(false);
    s.step();
    expect(s.world.tick).toBe(publicAt);
    expect(ids(w.now(other))).toEqual(['item-1']);
    // The owner knew it all along: it is not sent again.
    expect(w.updates(owner).filter((u) => ids(u).includes('item-1'))).toHaveLength(1);
  });

  it('encoded frames (msgpack and JSON) decode to the same payload and match the wire schema', () => {
    const s = new Scenario();
    populateWorld(s.world);
    const replicator = new Replicator(s.world);
    const names = Array.from({ length: 20 }, (_, i) => `P${i}`);
    const players = names.map((name, i) => s.addPlayer({ name, x: 95 + i, z: 100 }));
    let frames = 0;
    for (let t = 0; t < 4; t++) {
      players.forEach((id, i) => {
        s.push({ type: 'move', characterId: id, x: 100 + i, z: 110 + t, run: i % 2 === 0 });
      });
      if (t === 2) s.push({ type: 'leave', characterId: players[3] as string, reason: 'logout' });
      s.step();
      for (const d of replicator.collect()) {
        const payload = replicator.cache.payload(d);
        const mp = unpack(replicator.cache.encode(d, 'msgpack') as Uint8Array);
        const json = JSON.parse(replicator.cache.encode(d, 'json') as string);
        expect(mp).toEqual(['world:update', payload]);
        expect(json).toEqual(['world:update', payload]);
        expect(serverEvents['world:update'].parse(payload)).toEqual(payload);
        frames++;
      }
    }
    // Every player got a frame in every tick (the 20-entity first frames included).
    expect(frames).toBeGreaterThanOrEqual(4 * 19);
  });
});
