import { EntityType } from '../../core/components.ts';
import { inViewOf } from '../../core/reactions.ts';
import type { GameWorld } from '../../core/world.ts';
import { NPCS } from '../npcs/index.ts';
import { RESOURCES } from '../resources/index.ts';
import { STATIONS } from '../stations/index.ts';

/**
 * What an agent's dashboard and runtime see around a character: the places nearby, and which goals the
 * world allows there. A read of the world between ticks (the agent routes call it through the world
 * runtime); it changes nothing. Availability follows what the world holds: a goal type whose verb no
 * feature registers (no gathering or combat on this server yet) is listed as unavailable with the reason,
 * and becomes available by itself once that feature is added. Other players count only while the
 * character sees them: a character that is not in the world sees nobody.
 */

/** Tiles (Chebyshev) searched around the character. */
export const AGENT_SEARCH_RADIUS = 48;
/** Entries of `nearbyLocations`. */
export const MAX_NEARBY_LOCATIONS = 20;

export type LocationType = 'bank' | 'shop' | 'resource' | 'npc' | 'station';

export interface NearbyLocation {
  id: string;
  type: LocationType;
  name: string;
  x: number;
  z: number;
  distance: number;
}

export const GOAL_TYPES = ['idle', 'explore', 'gather', 'combat', 'bank', 'shop', 'trade', 'follow'] as const;
export type GoalType = (typeof GOAL_TYPES)[number];

export interface GoalOption {
  type: GoalType;
  label: string;
  target?: string;
  available: boolean;
  reason?: string;
}

export interface Surroundings {
  /** At most MAX_NEARBY_LOCATIONS, nearest first (ties by id). */
  nearbyLocations: NearbyLocation[];
  /** One entry per goal type, in GOAL_TYPES order. */
  availableGoals: GoalOption[];
}

interface Found {
  id: string;
  name: string;
  x: number;
  z: number;
  distance: number;
}

const titleCase = (s: string) => {
  const words = s.replace(/[_-]+/g, ' ').trim();
  return words.charAt(0).toUpperCase() + words.slice(1);
};

const nearest = (list: Found[]): Found | undefined => list[0];

const byDistance = (a: Found, b: Found) =>
  a.distance - b.distance || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

/** The surroundings of tile (x, z) for the character `selfId` (null: one not in the world). */
export function agentSurroundings(
  world: GameWorld,
  x: number,
  z: number,
  selfId: string | null,
): Surroundings {
  const { c } = world;
  const stations = world.get(STATIONS).byEid;
  const resources = world.get(RESOURCES).byEid;
  const npcs = world.get(NPCS).byEid;
  const locations: NearbyLocation[] = [];
  const banks: Found[] = [];
  const shops: Found[] = [];
  const liveResources: Found[] = [];
  const foes: Found[] = [];
  const players: Found[] = [];
  const r = AGENT_SEARCH_RADIUS;
  const viewer = selfId === null ? undefined : world.players.get(selfId);
  world.grid.forEachInSquare(x, z, r, (eid) => {
    const id = world.wireIds[eid];
    if (id === undefined) return;
    const ex = c.Position.x[eid] as number;
    const ez = c.Position.z[eid] as number;
    const distance = Math.max(Math.abs(ex - x), Math.abs(ez - z));
    if (distance > r) return;
    const at = { id, x: ex, z: ez, distance };
    switch (c.Kind.type[eid]) {
      case EntityType.station: {
        const st = stations.get(eid);
        if (!st) return;
        const type: LocationType = st.stationType === 'bank' ? 'bank' : 'station';
        const found = { ...at, name: titleCase(st.stationType) };
        locations.push({ ...found, type });
        if (type === 'bank') banks.push(found);
        return;
      }
      case EntityType.resource: {
        const res = resources.get(eid);
        if (!res) return;
        const named = world.content.gatheringNodes?.get(res.resourceId)?.name;
        const found = { ...at, name: named ?? titleCase(res.resourceId) };
        locations.push({ ...found, type: 'resource' });
        if (res.depletedUntilTick <= world.tick) liveResources.push(found);
        return;
      }
      case EntityType.npc: {
        const npc = npcs.get(eid);
        if (!npc) return;
        const type: LocationType = npc.service === 'bank' ? 'bank' : npc.service === 'store' ? 'shop' : 'npc';
        const found = { ...at, name: npc.name };
        locations.push({ ...found, type });
        if (type === 'bank') banks.push(found);
        if (type === 'shop') shops.push(found);
        if (world.content.npcs.get(npc.npcId)?.attackable === true) foes.push(found);
        return;
      }
      case EntityType.player: {
        // Other players only as the character sees them (view distance, nobody hidden): the places
        // above are fixed content, but where a player is must not reach farther than the socket tells.
        if (id === selfId || viewer === undefined || !inViewOf(world, viewer, eid)) return;
        const p = world.playerByEid.get(eid);
        if (p) players.push({ ...at, name: p.state.name });
        return;
      }
      default:
        return;
    }
  });
  locations.sort(byDistance);
  for (const list of [banks, shops, liveResources, foes, players]) list.sort(byDistance);
  const verbs = world.plan.actions;
  const option = (
    type: GoalType,
    what: string,
    verb: Parameters<typeof verbs.has>[0] | null,
    target: Found | undefined,
    none: string,
    label: (f: Found) => string,
  ): GoalOption => {
    if (verb !== null && !verbs.has(verb))
      return { type, label: what, available: false, reason: `${what} is not part of this world yet` };
    if (target === undefined) return { type, label: what, available: false, reason: none };
    return { type, label: label(target), target: target.id, available: true };
  };
  const far = `within ${r} tiles`;
  return {
    nearbyLocations: locations.slice(0, MAX_NEARBY_LOCATIONS),
    availableGoals: [
      { type: 'idle', label: 'Stay idle', available: true },
      { type: 'explore', label: 'Explore the area', available: true },
      option(
        'gather',
        'Gathering',
        'gather',
        nearest(liveResources),
        `no resource ready ${far}`,
        (f) => `Gather at ${f.name}`,
      ),
      option(
        'combat',
        'Combat',
        'attack',
        nearest(foes),
        `nothing to fight ${far}`,
        (f) => `Fight ${f.name}`,
      ),
      option('bank', 'Banking', 'bank', nearest(banks), `no bank ${far}`, (f) => `Bank at ${f.name}`),
      option('shop', 'Shopping', 'shop', nearest(shops), `no shop ${far}`, (f) => `Shop at ${f.name}`),
      option(
        'trade',
        'Trading',
        'trade',
        nearest(players),
        'no other player in view',
        (f) => `Trade with ${f.name}`,
      ),
      option(
        'follow',
        'Following',
        null,
        nearest(players),
        'no other player in view',
        (f) => `Follow ${f.name}`,
      ),
    ],
  };
}
