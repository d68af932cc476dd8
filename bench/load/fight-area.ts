import fs from 'node:fs';
import path from 'node:path';

/**
 * The fight of bench:combat: `npcs` NPCs placed in a square of `size` tiles around the spawn of the
 * starter town (written into the bench world's copy of world-areas.json, as more mob spawns of that
 * town), so that every bot entering at the spawn is in the one crowded fight. Two in five are thornback
 * boars and two in five marsh rats (they fight back weakly, die and drop bones and coins, and come back
 * after 20 ticks), one in five ash wolves, aggressive and strong enough to make a new character eat and
 * sometimes die.
 */

const KINDS = ['thornback_boar', 'marsh_rat', 'thornback_boar', 'marsh_rat', 'ash_wolf'] as const;

interface Area {
  spawnPoint?: { x: number; z: number };
  bounds: { minX: number; maxX: number; minZ: number; maxZ: number };
  mobSpawns?: {
    mobId: string;
    position: { x: number; y: number; z: number };
    spawnRadius: number;
    maxCount: number;
  }[];
}

export function placeFight(worldDir: string, npcs: number, size: number): void {
  const file = path.join(worldDir, 'assets', 'manifests', 'world-areas.json');
  const areas = JSON.parse(fs.readFileSync(file, 'utf8')) as { starterTowns: Record<string, Area> };
  const town = Object.values(areas.starterTowns).find((a) => a.spawnPoint !== undefined);
  if (!town?.spawnPoint) throw new Error('bench:combat: no starter town with a spawn point');
  const { x: sx, z: sz } = town.spawnPoint;
  // Spawn points on a grid over the square, a few NPCs each within a radius of half the grid step.
  const perSide = Math.max(1, Math.min(Math.floor(size / 4), Math.ceil(Math.sqrt(npcs / 10))));
  const step = size / perSide;
  const points = perSide * perSide;
  const spawns: NonNullable<Area['mobSpawns']> = [];
  for (let i = 0; i < points; i++) {
    const count = Math.floor(npcs / points) + (i < npcs % points ? 1 : 0);
    if (count === 0) continue;
    const x = Math.floor(sx - size / 2 + ((i % perSide) + 0.5) * step);
    const z = Math.floor(sz - size / 2 + (Math.floor(i / perSide) + 0.5) * step);
    spawns.push({
      mobId: KINDS[i % KINDS.length] as string,
      position: { x, y: 0, z },
      spawnRadius: Math.max(1, Math.floor(step / 2)),
      maxCount: count,
    });
  }
  const half = Math.ceil(size / 2) + 1;
  town.bounds = {
    minX: Math.min(town.bounds.minX, sx - half),
    maxX: Math.max(town.bounds.maxX, sx + half),
    minZ: Math.min(town.bounds.minZ, sz - half),
    maxZ: Math.max(town.bounds.maxZ, sz + half),
  };
  town.mobSpawns = [...(town.mobSpawns ?? []), ...spawns];
  fs.writeFileSync(file, JSON.stringify(areas, null, 2));
}
