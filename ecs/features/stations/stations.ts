import { EntityType } from '../../core/components.ts';
import type { Hasher } from '../../core/hasher.ts';
import { despawnEntity, type GameWorld, spawnEntity } from '../../core/world.ts';
import { STATIONS, type StationData } from './state.ts';

/**
 * Place a station (content start-up, a fire a player lights, an obstacle); `ticks` > 0 removes it after
 * that long. Its name is the placer's, else its kind's in stations.json.
 */
export function placeStation(
  world: GameWorld,
  stationType: string,
  x: number,
  z: number,
  ticks = 0,
  name: string | undefined = world.content.stationTypes?.get(stationType)?.name,
): number {
  const state = world.get(STATIONS);
  const eid = spawnEntity(world, 'station', `st-${++state.placed}`, x, z);
  state.byEid.set(eid, { eid, stationType, name, expiresAtTick: ticks > 0 ? world.tick + ticks : 0 });
  return eid;
}

export function removeStation(world: GameWorld, eid: number): void {
  if (!world.get(STATIONS).byEid.delete(eid)) return;
  despawnEntity(world, eid);
}

/** The station an entity is, or undefined for anything else (an NPC, a player, a gone entity). */
export function stationOf(world: GameWorld, eid: number): StationData | undefined {
  return world.c.Kind.type[eid] === EntityType.station ? world.get(STATIONS).byEid.get(eid) : undefined;
}

/** The station with that wire id, or undefined. */
export function stationByWireId(world: GameWorld, wireId: string): StationData | undefined {
  const eid = world.eidByWireId.get(wireId);
  return eid === undefined ? undefined : stationOf(world, eid);
}

export function placeContentStations(world: GameWorld): void {
  for (const s of world.content.stationSpawns) placeStation(world, s.type, s.x, s.z);
}

/** System: stations with a lifetime (fires) go away when it ends. */
export function expireStations(world: GameWorld): void {
  const state = world.get(STATIONS);
  for (const s of state.byEid.values()) {
    if (s.expiresAtTick > 0 && s.expiresAtTick <= world.tick) removeStation(world, s.eid);
  }
}

export function hashStations(world: GameWorld, h: Hasher): void {
  for (const s of world.get(STATIONS).byEid.values()) {
    h.int(s.eid);
    h.str(s.stationType);
    h.str(s.name ?? '');
    h.int(s.expiresAtTick);
  }
}
