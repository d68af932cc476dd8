import { describe, expect, it } from 'vitest';
import { testContent } from '../../../tests/helpers/sim-content.ts';
import { Scenario } from '../../../tests/scenario/harness.ts';
import type { SimContent } from '../../core/content.ts';
import { populateWorld } from '../../core/populate.ts';
import { RESOURCES } from '../resources/index.ts';
import { NPCS } from './index.ts';

function world(seed = 7, content: SimContent = testContent()) {
  const s = new Scenario({ seed, content });
  populateWorld(s.world);
  return s;
}

function npcTiles(s: Scenario): string[] {
  const { Position } = s.world.c;
  return [...s.world.get(NPCS).byEid.values()].map(
    (n) => `${s.world.wireIds[n.eid]}@${Position.x[n.eid]},${Position.z[n.eid]}`,
  );
}

describe('NPC spawning and wandering', () => {
  it('spawns every spawn entry: count NPCs within the radius on walkable tiles, with their health', () => {
    const blocked: [number, number][] = [];
    for (let x = 115; x <= 125; x++) blocked.push([x, 120]);
    const s = world(7, testContent({ blocked }));
    const npcs = [...s.world.get(NPCS).byEid.values()];
    expect(npcs.map((n) => s.world.wireIds[n.eid])).toEqual(['npc-1', 'npc-2', 'npc-3', 'npc-4']);
    const { Position, Health } = s.world.c;
    const banker = npcs[0];
    expect(banker?.npcId).toBe('banker');
    expect(banker?.service).toBe('bank');
    expect([Position.x[banker?.eid ?? 0], Position.z[banker?.eid ?? 0]]).toEqual([103, 100]);
    for (const goblin of npcs.slice(1)) {
      expect(goblin.npcId).toBe('goblin');
      const x = Position.x[goblin.eid] as number;
      const z = Position.z[goblin.eid] as number;
      expect(Math.max(Math.abs(x - 120), Math.abs(z - 120))).toBeLessThanOrEqual(5);
      expect(s.world.content.map.isWalkable(x, z)).toBe(true);
      expect([Health.current[goblin.eid], Health.max[goblin.eid]]).toEqual([5, 5]);
    }
  });

  it('spawns resource nodes as entities with res-<n> ids', () => {
    const content = {
      ...testContent(),
      resourceSpawns: [{ resourceId: 'tree_normal', kind: 'tree', x: 10, z: 12 }],
    };
    const s = world(1, content);
    const [res] = [...s.world.get(RESOURCES).byEid.values()];
    expect(res && s.world.wireIds[res.eid]).toBe('res-1');
    expect(res?.kind).toBe('tree');
    expect(s.world.eidByWireId.get('res-1')).toBe(res?.eid);
  });

  it('wanderers move within their radius of the spawn; the banker (radius 0) never moves', () => {
    const s = world();
    const start = npcTiles(s);
    const seen = new Set<string>();
    const { Position } = s.world.c;
    for (let t = 0; t < 200; t++) {
      s.step();
      for (const n of s.world.get(NPCS).byEid.values()) {
        const x = Position.x[n.eid] as number;
        const z = Position.z[n.eid] as number;
        if (n.npcId === 'goblin') {
          expect(Math.max(Math.abs(x - 120), Math.abs(z - 120))).toBeLessThanOrEqual(5);
          seen.add(`${n.eid}:${x},${z}`);
        } else {
          expect([x, z]).toEqual([103, 100]);
        }
      }
    }
    // Three goblins over 200 ticks visit many tiles.
    expect(seen.size).toBeGreaterThan(15);
    expect(npcTiles(s)).not.toEqual(start);
  });

  it('is deterministic: the same seed gives the same spawns and walks, another seed differs', () => {
    const a = world(11);
    const b = world(11);
    const c = world(12);
    a.step(50);
    b.step(50);
    c.step(50);
    expect(npcTiles(a)).toEqual(npcTiles(b));
    expect(npcTiles(a)).not.toEqual(npcTiles(c));
  });
});
