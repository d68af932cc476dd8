import { unpack } from 'msgpackr';
import { describe, expect, it } from 'vitest';
import { populateWorld } from '../../ecs/core/populate.ts';
import type { GameWorld } from '../../ecs/core/world.ts';
import { combatContent } from '../../ecs/features/combat/combat-scenario-helpers.ts';
import { Replicator } from '../../net/replication/replicator.ts';
import { Scenario } from './harness.ts';

/**
 * Hits and deaths ride in the target's world:update entry, encoded once per tick for all its viewers.
 * In a crowd fight (players on NPCs that hit back and die, players dying and waking at the spawn,
 * watchers near, on the view edge and walking in and out of view) every viewer gets every hit on every
 * entity it can see exactly once, in the tick it happened, and nothing that did not happen; in the
 * object payload and in the msgpack and JSON frames alike.
 */

interface Hit {
  tick: number;
  attackerId: string;
  targetId: string;
  damage: number;
}
type Entry = { id: string; hits?: { attackerId: string; damage: number; style: string }[]; death?: unknown };
const key = (h: Hit) => `${h.tick}|${h.attackerId}|${h.targetId}|${h.damage}`;

/** Where each entity stood at the end of each tick (despawned ones at their last tile). */
function positions(w: GameWorld): Map<string, { x: number; z: number }> {
  const out = new Map<string, { x: number; z: number }>();
  for (const [id, eid] of w.eidByWireId)
    out.set(id, { x: w.c.Position.x[eid] as number, z: w.c.Position.z[eid] as number });
  for (const d of w.despawned)
    out.set(d.wireId, { x: w.c.Position.x[d.eid] as number, z: w.c.Position.z[d.eid] as number });
  return out;
}

describe('hits in the replication stream', () => {
  for (const via of ['payload', 'msgpack', 'json'] as const) {
    it(`${via}: every viewer sees every hit on what it sees, exactly once, in its tick`, () => {
      const spawns = [
        { npcId: 'rat', x: 100, z: 100, count: 6, radius: 3 },
        { npcId: 'brute', x: 104, z: 104, count: 2, radius: 1 },
        { npcId: 'wolf', x: 96, z: 104, count: 2, radius: 1 },
      ];
      const s = new Scenario({ content: combatContent(spawns), seed: 7 });
      populateWorld(s.world);
      const replicator = new Replicator(s.world);
      const view = s.world.viewDistance;
      const fighters: string[] = [];
      for (let i = 0; i < 8; i++)
        fighters.push(s.addPlayer({ name: `F${i}`, x: 98 + (i % 4) * 2, z: 98 + (i >> 2) * 4 }));
      const watchers = [
        s.addPlayer({ name: 'Near', x: 101, z: 101 }),
        s.addPlayer({ name: 'Edge', x: 100 + view, z: 100 }),
        s.addPlayer({ name: 'Beyond', x: 100 + view + 6, z: 100 }),
        s.addPlayer({ name: 'Walker', x: 100 - view - 8, z: 100 }),
      ];
      const walker = watchers[3] as string;
      const npcIds = () => [...s.world.eidByWireId.keys()].filter((id) => id.startsWith('npc-'));
      // Per viewer: every hit delivered (with duplicates kept), and every hit it had to get.
      const got = new Map<string, string[]>();
      const owed = new Map<string, Set<string>>();
      let hitsTotal = 0;
      let deathsSeen = 0;
      s.afterTick.push((w) => {
        // The truth: every combat:hit of the tick (one to the attacker, one to the victim).
        const truth = new Map<string, Hit>();
        for (const e of s.log)
          if (e.tick === w.tick && e.kind === 'combatHit') {
            const h = { ...e.data, tick: w.tick };
            truth.set(key(h), h);
          }
        hitsTotal += truth.size;
        const where = positions(w);
        const frames = new Map<string, Entry[]>();
        for (const d of replicator.collect()) {
          let entities: Entry[];
          if (via === 'payload') entities = replicator.cache.payload(d).entities as Entry[];
          else {
            const frame = replicator.cache.encode(d, via);
            const [event, p] = (typeof frame === 'string' ? JSON.parse(frame) : unpack(frame)) as [
              string,
              { tick: number; entities: Entry[] },
            ];
            expect(event).toBe('world:update');
            expect(p.tick).toBe(w.tick);
            entities = p.entities;
          }
          frames.set(d.characterId, entities);
        }
        for (const viewer of [...fighters, ...watchers]) {
          const me = where.get(viewer) as { x: number; z: number };
          const list = got.get(viewer) ?? [];
          for (const e of frames.get(viewer) ?? []) {
            if (e.death !== undefined) deathsSeen++;
            for (const h of e.hits ?? []) {
              const k = key({ tick: w.tick, attackerId: h.attackerId, targetId: e.id, damage: h.damage });
              expect(truth.has(k), `${viewer} got a hit that did not happen: ${k}`).toBe(true);
              list.push(k);
            }
          }
          got.set(viewer, list);
          const must = owed.get(viewer) ?? new Set();
          for (const [k, h] of truth) {
            const t = where.get(h.targetId);
            if (t && Math.max(Math.abs(t.x - me.x), Math.abs(t.z - me.z)) <= view) must.add(k);
          }
          owed.set(viewer, must);
        }
      });
      for (let t = 0; t < 120; t++) {
        // Fighters keep attacking whatever NPC is alive, spread over them.
        if (t % 10 === 0) {
          const alive = npcIds();
          fighters.forEach((f, i) => {
            const target = alive[i % Math.max(1, alive.length)];
            if (target) s.push({ type: 'action', characterId: f, action: 'attack', targetId: target });
          });
        }
        // The walker crosses the view edge of the fight back and forth.
        if (t % 20 === 0) {
          const x = t % 40 === 0 ? 100 - view + 4 : 100 - view - 8;
          s.push({ type: 'move', characterId: walker, x, z: 100, run: true, origin: 'player:move' });
        }
        s.step();
      }
      expect(hitsTotal).toBeGreaterThan(100);
      expect(deathsSeen).toBeGreaterThan(0);
      for (const viewer of [...fighters, ...watchers]) {
        const list = got.get(viewer) ?? [];
        expect(new Set(list).size, `${viewer}: a hit delivered twice`).toBe(list.length);
        const missing = [...(owed.get(viewer) ?? [])].filter((k) => !list.includes(k));
        expect(missing, `${viewer}: hits in view it never got`).toEqual([]);
      }
      // The one beyond view got none of them; the walker some, not all.
      expect(got.get(watchers[2] as string)).toEqual([]);
      expect((got.get(walker) ?? []).length).toBeGreaterThan(0);
    });
  }
});
