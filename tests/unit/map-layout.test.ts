import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { SimContent } from '../../ecs/core/content.ts';
import { REPO_ROOT } from '../../lib/repo-root.ts';
import { type MapLayout, mapLayout } from '../../net/routes/map-layout.ts';
import { loadContent } from '../../world/loader.ts';
import type { ContentRegistry } from '../../world/registry.ts';
import { toSimContent } from '../../world/sim-content.ts';

/** The map's drawing data from the default world: biomes, buildings, water and walking paths. */

let registry: ContentRegistry;
let sim: SimContent;
let layout: MapLayout;

beforeAll(async () => {
  registry = await loadContent(path.join(REPO_ROOT, 'world', 'assets', 'manifests'));
  sim = toSimContent(registry);
  layout = mapLayout(sim, registry);
});

describe('map layout of the default world', () => {
  it('gives every area its biome and the biome terrain from biomes.json', () => {
    expect(layout.areas.map((a) => a.id)).toEqual(sim.worldAreas.map((a) => a.id));
    for (const a of layout.areas) {
      const def = registry.areas.get(a.id);
      expect(a.biome).toBe(def?.biomeType);
      expect(a.terrain).toBe(registry.biomes.get(a.biome)?.terrain ?? null);
      expect(a.safeZone).toBe(def?.safeZone);
      expect(a.pvpEnabled).toBe(def?.pvpEnabled);
    }
    expect(layout.areas.find((a) => a.id === 'ashwood')?.terrain).toBe('forest');
  });

  it('outlines every building with its door', () => {
    expect(layout.buildings).toHaveLength(registry.buildings.length);
    const vault = layout.buildings.find((b) => b.id === 'emberfold_vault');
    expect(vault).toMatchObject({ x: 584, z: 616, width: 10, depth: 8, door: { x: 588, z: 616 } });
  });

  it('puts water under every fishing spot, wider where the spot moves', () => {
    const spots = sim.resourceSpawns.filter(
      (r) => sim.gatheringNodes?.get(r.resourceId)?.skill === 'fishing',
    );
    expect(spots.length).toBeGreaterThan(0);
    expect(layout.water.map((w) => [w.x, w.z])).toEqual(spots.map((s) => [s.x, s.z]));
    const moving = spots.findIndex((s) => (sim.gatheringNodes?.get(s.resourceId)?.moveTicks ?? 0) > 0);
    const still = spots.findIndex((s) => (sim.gatheringNodes?.get(s.resourceId)?.moveTicks ?? 0) === 0);
    expect(layout.water[moving]?.radius).toBeGreaterThan(layout.water[still]?.radius ?? 0);
  });

  it('lays paths on walkable tiles only, joining the spawn to every door, station and other area', () => {
    const tiles = new Set<string>();
    for (const [z, from, to] of layout.paths) {
      expect(from).toBeLessThanOrEqual(to);
      for (let x = from; x <= to; x++) {
        expect(sim.map.isWalkable(x, z)).toBe(true);
        tiles.add(`${x},${z}`);
      }
    }
    // Flood over path tiles from the spawn: every target is on (or next to) the network it reaches.
    const seen = new Set<string>([`${sim.spawn.x},${sim.spawn.z}`]);
    const queue = [[sim.spawn.x, sim.spawn.z] as const];
    while (queue.length > 0) {
      const [x, z] = queue.pop() as readonly [number, number];
      for (const [nx, nz] of [
        [x + 1, z],
        [x - 1, z],
        [x, z + 1],
        [x, z - 1],
      ] as const) {
        const key = `${nx},${nz}`;
        if (tiles.has(key) && !seen.has(key)) {
          seen.add(key);
          queue.push([nx, nz]);
        }
      }
    }
    expect(seen.size).toBe(tiles.size);
    const touches = (x: number, z: number) =>
      [
        [0, 0],
        [1, 0],
        [-1, 0],
        [0, 1],
        [0, -1],
      ].some(([dx, dz]) => seen.has(`${x + (dx as number)},${z + (dz as number)}`));
    for (const b of layout.buildings) if (b.door) expect(touches(b.door.x, b.door.z)).toBe(true);
    for (const s of sim.stationSpawns) expect(touches(s.x, s.z)).toBe(true);
    for (const a of layout.areas) {
      const inside = [...seen].some((k) => {
        const [x, z] = k.split(',').map(Number) as [number, number];
        return x >= a.minX && x <= a.maxX && z >= a.minZ && z <= a.maxZ;
      });
      expect(inside, a.id).toBe(true);
    }
  });

  it('without a registry, areas are still listed (no biome, no buildings)', () => {
    const bare = mapLayout(sim, undefined);
    expect(bare.areas.map((a) => a.biome)).toEqual(sim.worldAreas.map(() => 'unknown'));
    expect(bare.buildings).toEqual([]);
  });
});
