import { emptyInventory } from '../ecs/core/character-state.ts';
import type { NpcSpawn, SimContent } from '../ecs/core/content.ts';
import { populateWorld } from '../ecs/core/populate.ts';
import { Rng } from '../ecs/core/rng.ts';
import { newSkills } from '../ecs/core/skills.ts';
import { stepWorld } from '../ecs/core/tick.ts';
import { TileMap } from '../ecs/core/tile-map.ts';
import type { GameWorld } from '../ecs/core/world.ts';
import { createGameWorld } from '../ecs/game.ts';

/**
 * Benchmark worlds: a 1,000 x 1,000 map with scattered 3x3 obstacles (about 5% blocked), `npcs` NPCs
 * spread over it and `players` players either spread or packed in a 40 x 40 hotspot.
 */

export const MAP_SIZE = 1000;

export function benchContent(npcs: number, wander: boolean): SimContent {
  const map = new TileMap(0, 0, MAP_SIZE, MAP_SIZE);
  const rng = new Rng(1234);
  for (let i = 0; i < (MAP_SIZE * MAP_SIZE * 0.05) / 9; i++) {
    const x = rng.int(0, MAP_SIZE - 3);
    const z = rng.int(0, MAP_SIZE - 3);
    for (let dx = 0; dx < 3; dx++) for (let dz = 0; dz < 3; dz++) map.setBlocked(x + dx, z + dz);
  }
  for (let dx = -30; dx <= 30; dx++)
    for (let dz = -30; dz <= 30; dz++) map.setBlocked(500 + dx, 500 + dz, false);
  const npcSpawns: NpcSpawn[] = [];
  for (let i = 0; i < npcs; i++) {
    npcSpawns.push({
      npcId: wander ? 'wanderer' : 'statue',
      x: rng.int(5, MAP_SIZE - 6),
      z: rng.int(5, MAP_SIZE - 6),
      count: 1,
      radius: 4,
    });
  }
  const npc = (id: string, wanderRadius: number) => ({
    id,
    name: id,
    category: 'mob',
    level: 2,
    health: 5,
    attackable: true,
    aggressive: false,
    wanderRadius,
    respawnTicks: 20,
  });
  return {
    items: new Map(),
    npcs: new Map([
      ['wanderer', npc('wanderer', 4)],
      ['statue', npc('statue', 0)],
    ]),
    spawn: { x: 500, z: 500 },
    map,
    npcSpawns,
    resourceSpawns: [],
    stationSpawns: [],
    starterInventory: [],
    worldAreas: [],
  };
}

export function benchWorld(opts: {
  npcs: number;
  players: number;
  hotspot: boolean;
  wander?: boolean;
}): GameWorld {
  const world = createGameWorld({
    content: benchContent(opts.npcs, opts.wander ?? false),
    seed: 7,
    capacity: opts.npcs + opts.players + 1024,
  });
  populateWorld(world);
  const rng = new Rng(99);
  const joins = [];
  for (let i = 0; i < opts.players; i++) {
    const id = `bot-${i}`;
    const x = opts.hotspot ? 480 + rng.int(0, 39) : rng.int(10, MAP_SIZE - 11);
    const z = opts.hotspot ? 480 + rng.int(0, 39) : rng.int(10, MAP_SIZE - 11);
    joins.push({
      type: 'join' as const,
      characterId: id,
      accountId: id,
      state: {
        id,
        accountId: id,
        name: id,
        position: { x, y: 0, z },
        health: 100,
        coins: 0,
        skills: newSkills(),
        inventory: emptyInventory(),
        equipment: {},
        bank: [],
      },
    });
  }
  stepWorld(world, joins, 0);
  return world;
}
