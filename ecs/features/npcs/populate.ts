import { addComponent } from 'bitecs';
import type { NpcSpawn } from '../../core/content.ts';
import { type GameWorld, spawnEntity } from '../../core/world.ts';
import { NPCS } from './state.ts';

/**
 * Places every NPC spawn entry of the content: count NPCs within its radius on walkable tiles, by the
 * world's seeded generator. Wire ids: `npc-<n>`.
 */
export function placeNpcs(world: GameWorld): void {
  world.content.npcSpawns.forEach((spawn, index) => {
    for (let i = 0; i < spawn.count; i++) spawnNpc(world, spawn, index);
  });
}

/** Tries a few random tiles inside the radius, then the spawn point itself. */
function pickTile(world: GameWorld, spawn: NpcSpawn): { x: number; z: number } {
  const map = world.content.map;
  for (let attempt = 0; attempt < 8 && spawn.radius > 0; attempt++) {
    const x = spawn.x + world.rng.int(-spawn.radius, spawn.radius);
    const z = spawn.z + world.rng.int(-spawn.radius, spawn.radius);
    if (map.isWalkable(x, z)) return { x, z };
  }
  return { x: spawn.x, z: spawn.z };
}

export function spawnNpc(world: GameWorld, spawn: NpcSpawn, spawnIndex: number): number | null {
  const info = world.content.npcs.get(spawn.npcId);
  if (!info) return null;
  const { x, z } = pickTile(world, spawn);
  const npcs = world.get(NPCS);
  const eid = spawnEntity(world, 'npc', `npc-${++npcs.spawned}`, x, z);
  const { c } = world;
  c.Health.max[eid] = info.health;
  c.Health.current[eid] = info.health;
  npcs.byEid.set(eid, {
    eid,
    npcId: info.id,
    name: info.name,
    level: info.level,
    spawnIndex,
    service: spawn.service,
    storeId: spawn.storeId,
  });
  if (info.wanderRadius > 0) {
    addComponent(world.ecs, eid, c.Wander);
    c.Wander.originX[eid] = spawn.x;
    c.Wander.originZ[eid] = spawn.z;
    c.Wander.radius[eid] = spawn.radius > 0 ? spawn.radius : info.wanderRadius;
    c.Wander.nextTick[eid] = world.tick + world.rng.int(1, WANDER_MAX_WAIT);
  }
  return eid;
}

/** Ticks an idle NPC waits before picking its next tile: uniformly in [MIN, MAX]. */
export const WANDER_MIN_WAIT = 4;
export const WANDER_MAX_WAIT = 12;
