import { Dirty, EntityType, MoveMode } from '../../core/components.ts';
import type { GameWorld } from '../../core/world.ts';
import { markDirty, markPosition } from '../../core/world.ts';
import { hasPendingPath, requestPath } from '../movement/index.ts';
import { NPCS, spawnNpc } from '../npcs/index.ts';
import { startFight, stopFight } from './fights.ts';
import { COMBAT, type NpcHome } from './state.ts';

/** Ticks an NPC's wandering is held back while it fights or walks home (re-armed every tick). */
const HOLD_WANDER_TICKS = 4;

/** Where an NPC lives: its content spawn point, or where it first stood (admin spawns). */
export function npcHome(world: GameWorld, eid: number): NpcHome {
  const st = world.get(COMBAT);
  let home = st.npcHomes.get(eid);
  if (!home) {
    const npc = world.get(NPCS).byEid.get(eid);
    const spawn = npc && npc.spawnIndex >= 0 ? world.content.npcSpawns[npc.spawnIndex] : undefined;
    home = spawn
      ? { homeX: spawn.x, homeZ: spawn.z, returning: false }
      : {
          homeX: world.c.Position.x[eid] as number,
          homeZ: world.c.Position.z[eid] as number,
          returning: false,
        };
    st.npcHomes.set(eid, home);
  }
  return home;
}

/**
 * System (npcs phase): NPCs due back respawn; fighting NPCs pulled beyond `leashRange` of home give up
 * and walk home, healing fully on arrival; idle aggressive NPCs pick the nearest player within
 * `aggroRange` (and within their leash), found through the spatial grid: the cost is the players near
 * each NPC, never all players.
 */
export function npcAiSystem(world: GameWorld): void {
  const st = world.get(COMBAT);
  respawnDue(world);
  const { c } = world;
  const p = c.Position;
  for (const npc of world.get(NPCS).byEid.values()) {
    const info = world.content.npcs.get(npc.npcId);
    const cb = info?.combat;
    if (!cb) continue;
    const eid = npc.eid;
    const fighting = st.fights.has(eid);
    const known = st.npcHomes.get(eid);
    if (!fighting && !known?.returning && !info.aggressive) continue;
    const home = known ?? npcHome(world, eid);
    const x = p.x[eid] as number;
    const z = p.z[eid] as number;
    const fromHome = Math.max(Math.abs(x - home.homeX), Math.abs(z - home.homeZ));
    if (fighting && fromHome > cb.leashRange) {
      stopFight(world, eid);
      home.returning = true;
      requestPath(world, eid, home.homeX, home.homeZ, false, null);
    }
    if (home.returning) {
      c.Wander.nextTick[eid] = world.tick + HOLD_WANDER_TICKS;
      if (x === home.homeX && z === home.homeZ) {
        home.returning = false;
        if (c.Health.current[eid] !== c.Health.max[eid]) {
          c.Health.current[eid] = c.Health.max[eid] as number;
          markDirty(world, eid, Dirty.health);
        }
      } else if (c.Movement.mode[eid] === MoveMode.idle && !hasPendingPath(world, eid)) {
        // The way home is blocked or the path failed: it is simply back.
        markPosition(world, eid, home.homeX, home.homeZ);
      }
      continue;
    }
    if (st.fights.has(eid)) {
      c.Wander.nextTick[eid] = world.tick + HOLD_WANDER_TICKS;
      continue;
    }
    const target = nearestPlayer(world, x, z, cb.aggroRange, home, cb.leashRange);
    if (target !== -1) {
      startFight(world, eid, target);
      c.Wander.nextTick[eid] = world.tick + HOLD_WANDER_TICKS;
    }
  }
}

/** The living player nearest (x, z) within `range` and within `leash` of home; ties: lowest eid. */
function nearestPlayer(
  world: GameWorld,
  x: number,
  z: number,
  range: number,
  home: NpcHome,
  leash: number,
): number {
  if (range <= 0) return -1;
  const { c } = world;
  const p = c.Position;
  let best = -1;
  let bestD = Number.POSITIVE_INFINITY;
  world.grid.forEachInSquare(x, z, range, (eid) => {
    if (c.Kind.type[eid] !== EntityType.player || (c.Health.current[eid] as number) <= 0) return;
    const px = p.x[eid] as number;
    const pz = p.z[eid] as number;
    const d = Math.max(Math.abs(px - x), Math.abs(pz - z));
    if (d > range || Math.max(Math.abs(px - home.homeX), Math.abs(pz - home.homeZ)) > leash) return;
    if (d < bestD || (d === bestD && eid < best)) {
      bestD = d;
      best = eid;
    }
  });
  return best;
}

function respawnDue(world: GameWorld): void {
  const st = world.get(COMBAT);
  if (st.respawns.length === 0) return;
  const due = st.respawns.filter((r) => r.tick <= world.tick);
  if (due.length === 0) return;
  st.respawns = st.respawns.filter((r) => r.tick > world.tick);
  for (const r of due) {
    const spawn = world.content.npcSpawns[r.spawnIndex];
    if (spawn) spawnNpc(world, spawn, r.spawnIndex);
  }
}
