import { rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { loadContent } from '../../world/loader.ts';
import { toSimContent } from '../../world/sim-content.ts';
import { MIN_WORLD_SIZE } from '../../world/world-layout.ts';
import {
  copyManifests,
  defaultManifests,
  editJson,
  referenceAvailable,
  referenceManifests,
  removeDir,
} from '../fixtures/content/paths.ts';

const temps: string[] = [];
afterEach(async () => {
  await Promise.all(temps.splice(0).map(removeDir));
});
async function temp() {
  const dir = await copyManifests();
  temps.push(dir);
  return dir;
}

describe('toSimContent on the default world', async () => {
  const registry = await loadContent(defaultManifests);
  const sim = toSimContent(registry);

  it('takes bounds and spawn from world.json; the spawn is 400+ tiles from every edge and walkable', () => {
    const world = registry.world!;
    expect(sim.map.minX).toBe(world.bounds.minX);
    expect(sim.map.maxX).toBe(world.bounds.maxX);
    expect(sim.map.minZ).toBe(world.bounds.minZ);
    expect(sim.map.maxZ).toBe(world.bounds.maxZ);
    expect(sim.map.width).toBeGreaterThanOrEqual(1000);
    expect(sim.map.depth).toBeGreaterThanOrEqual(1000);
    expect(sim.spawn).toEqual({ x: world.spawn.x, z: world.spawn.z });
    const { x, z } = sim.spawn;
    expect(
      Math.min(x - sim.map.minX, sim.map.maxX - x, z - sim.map.minZ, sim.map.maxZ - z),
    ).toBeGreaterThanOrEqual(400);
    expect(sim.map.isWalkable(x, z)).toBe(true);
  });

  it('blocks stations, resources and buildings (but not a building door)', () => {
    expect(sim.stationSpawns.length).toBeGreaterThan(0);
    for (const s of sim.stationSpawns) expect(sim.map.isWalkable(s.x, s.z)).toBe(false);
    for (const r of sim.resourceSpawns) expect(sim.map.isWalkable(r.x, r.z)).toBe(false);
    for (const b of registry.buildings) {
      const corner = { x: b.position.x + b.footprint.width - 1, z: b.position.z + b.footprint.depth - 1 };
      expect(sim.map.isWalkable(corner.x, corner.z)).toBe(false);
      if (b.door) expect(sim.map.isWalkable(b.door.x, b.door.z)).toBe(true);
    }
  });

  it('lets a new character walk from the spawn to every NPC and next to every station and resource', () => {
    const { map } = sim;
    const seen = new Uint8Array(map.width * map.depth);
    const idx = (x: number, z: number) => (z - map.minZ) * map.width + (x - map.minX);
    const queue: [number, number][] = [[sim.spawn.x, sim.spawn.z]];
    seen[idx(sim.spawn.x, sim.spawn.z)] = 1;
    for (let head = 0; head < queue.length; head++) {
      const [x, z] = queue[head]!;
      for (const [dx, dz] of [
        [1, 0],
        [-1, 0],
        [0, 1],
        [0, -1],
      ] as const) {
        const nx = x + dx;
        const nz = z + dz;
        if (map.isWalkable(nx, nz) && !seen[idx(nx, nz)]) {
          seen[idx(nx, nz)] = 1;
          queue.push([nx, nz]);
        }
      }
    }
    const reached = (x: number, z: number) => map.inBounds(x, z) && seen[idx(x, z)] === 1;
    for (const n of sim.npcSpawns) expect(reached(n.x, n.z), `npc ${n.npcId}`).toBe(true);
    for (const p of [...sim.stationSpawns, ...sim.resourceSpawns]) {
      const near = [
        reached(p.x + 1, p.z),
        reached(p.x - 1, p.z),
        reached(p.x, p.z + 1),
        reached(p.x, p.z - 1),
      ];
      expect(near.some(Boolean), `${JSON.stringify(p)}`).toBe(true);
    }
  });

  it('normalises items: 2h, stackable currency, food, requirements with defence → defense', () => {
    const twoHanded = [...registry.items.values()].find((i) => i.equipSlot === '2h')!;
    expect(sim.items.get(twoHanded.id)).toMatchObject({ equipSlot: 'weapon', twoHanded: true });
    const coins = [...registry.items.values()].find((i) => i.type === 'currency')!;
    expect(sim.items.get(coins.id)?.stackable).toBe(true);
    const food = [...registry.items.values()].find((i) => (i.healAmount ?? 0) > 0)!;
    expect(sim.items.get(food.id)?.healAmount).toBe(food.healAmount);
    const armour = [...registry.items.values()].find(
      (i) => i.requirements?.skills?.['defence'] !== undefined,
    )!;
    expect(sim.items.get(armour.id)?.requirements).toEqual({
      defense: armour.requirements?.skills?.['defence'],
    });
    expect([...sim.items.values()].some((i) => !i.tradeable)).toBe(true);
  });

  it('places NPCs with their services, mobs with count and radius', () => {
    const bank = sim.npcSpawns.find((n) => n.service === 'bank');
    expect(bank).toBeDefined();
    const stores = sim.npcSpawns.filter((n) => n.service === 'store');
    expect(stores.length).toBeGreaterThanOrEqual(3);
    for (const s of stores) expect(registry.ids.get('store')?.has(s.storeId!)).toBe(true);
    expect(sim.npcSpawns.some((n) => n.service === 'quest')).toBe(true);
    const area = registry.areas.get('ashwood')!;
    const mob = area.mobSpawns[0]!;
    expect(sim.npcSpawns).toContainEqual({
      npcId: mob.mobId,
      x: mob.position.x,
      z: mob.position.z,
      count: mob.maxCount,
      radius: mob.spawnRadius,
    });
    for (const n of sim.npcSpawns) expect(sim.npcs.has(n.npcId)).toBe(true);
    expect([...sim.npcs.values()].some((n) => n.aggressive)).toBe(true);
    expect([...sim.npcs.values()].some((n) => n.attackable && !n.aggressive)).toBe(true);
  });

  it('starts characters with the first template and places fishing spots', () => {
    // Non-stackable template quantities become one slot each.
    const expected = (registry.templates[0]?.inventory ?? []).flatMap((s) =>
      sim.items.get(s.itemId)?.stackable
        ? [s]
        : Array.from({ length: s.quantity }, () => ({ itemId: s.itemId, quantity: 1 })),
    );
    expect(sim.starterInventory).toEqual(expected);
    expect(sim.starterInventory.length).toBeGreaterThan(registry.templates[0]?.inventory.length ?? 0);
    expect(sim.resourceSpawns.filter((r) => r.kind === 'fishing').length).toBe(
      registry.areas.get('emberfold')?.fishing?.positions?.length,
    );
  });
});

describe('derived world (no world.json)', () => {
  it('covers every area with margin, is at least 1000x1000 and spawns at the spawnPoint', async () => {
    const dir = await temp();
    await rm(path.join(dir, 'world.json'));
    await editJson(dir, 'world-areas.json', (a) => {
      a.level1Areas.ashwood.bounds = { minX: 650, maxX: 1900, minZ: 540, maxZ: 680 };
    });
    const registry = await loadContent(dir);
    const sim = toSimContent(registry);
    const town = registry.areas.get('emberfold')!;
    expect(sim.spawn).toEqual({ x: town.spawnPoint?.x, z: town.spawnPoint?.z });
    expect(sim.map.width).toBe(sim.map.depth);
    expect(sim.map.width).toBeGreaterThan(2 * (1900 - 600));
    for (const a of registry.areas.values()) {
      expect(sim.map.inBounds(a.bounds.minX, a.bounds.minZ)).toBe(true);
      expect(sim.map.inBounds(a.bounds.maxX, a.bounds.maxZ)).toBe(true);
    }
  });

  it('without a spawnPoint spawns at the centroid of the town NPCs', async () => {
    const dir = await temp();
    await rm(path.join(dir, 'world.json'));
    let expected = { x: 0, z: 0 };
    await editJson(dir, 'world-areas.json', (a) => {
      const town = a.starterTowns.emberfold;
      delete town.spawnPoint;
      const n = town.npcs.length;
      expected = {
        x: Math.floor(
          town.npcs.reduce((s: number, p: { position: { x: number } }) => s + p.position.x, 0) / n,
        ),
        z: Math.floor(
          town.npcs.reduce((s: number, p: { position: { z: number } }) => s + p.position.z, 0) / n,
        ),
      };
    });
    const sim = toSimContent(await loadContent(dir));
    expect(sim.spawn).toEqual(expected);
    expect(sim.map.width).toBeGreaterThanOrEqual(MIN_WORLD_SIZE);
  });

  it('uses model-bounds footprints for stations', async () => {
    const dir = await temp();
    const registry0 = await loadContent(dir);
    const kinds = registry0.manifests['stations.json'] as { stations: { type: string; model?: string }[] };
    const furnace = kinds.stations.find((s) => s.type === 'furnace')!;
    await writeFile(
      path.join(dir, 'model-bounds.json'),
      JSON.stringify({
        generatedAt: new Date(0).toISOString(),
        tileSize: 1,
        models: [
          {
            id: 'stations/furnace',
            assetPath: furnace.model,
            bounds: { min: { x: -1.5, y: 0, z: -1.5 }, max: { x: 1.5, y: 2, z: 1.5 } },
            dimensions: { x: 3, y: 2, z: 3 },
            footprint: { width: 3, depth: 3 },
          },
        ],
      }),
    );
    const sim = toSimContent(await loadContent(dir));
    const s = sim.stationSpawns.find((x) => x.type === 'furnace')!;
    for (const [dx, dz] of [
      [-1, -1],
      [1, 1],
      [1, -1],
    ] as const) {
      expect(sim.map.isWalkable(s.x + dx, s.z + dz)).toBe(false);
    }
    expect(sim.map.isWalkable(s.x + 2, s.z + 2)).toBe(true);
  });
});

describe.runIf(referenceAvailable())('toSimContent on the reference manifests', () => {
  it('derives a world that holds every placement, spawning at the starter town', async () => {
    const registry = await loadContent(referenceManifests);
    const sim = toSimContent(registry);
    expect(sim.map.width).toBeGreaterThanOrEqual(MIN_WORLD_SIZE);
    for (const p of [...sim.npcSpawns, ...sim.resourceSpawns, ...sim.stationSpawns]) {
      expect(sim.map.inBounds(p.x, p.z)).toBe(true);
    }
    expect(sim.map.isWalkable(sim.spawn.x, sim.spawn.z)).toBe(true);
    expect(sim.items.get('coins')?.stackable).toBe(true);
    expect(sim.npcSpawns.find((n) => n.npcId === 'bank_clerk')?.service).toBe('bank');
    const mobs = [...registry.areas.values()].flatMap((a) => a.mobSpawns);
    expect(sim.npcSpawns.filter((n) => n.service === undefined && n.count > 1).length).toBeLessThanOrEqual(
      mobs.length,
    );
  });
});
