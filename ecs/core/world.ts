import { addComponent, addEntity, createWorld, removeEntity, type World } from 'bitecs';
import type { CharacterState } from './character-state.ts';
import {
  type Components,
  createComponents,
  Dirty,
  ENTITY_TYPE_NAMES,
  EntityType,
  type EntityTypeName,
  MoveMode,
} from './components.ts';
import type { SimContent } from './content.ts';
import type { SimEvent, SimEventData, SimEventKind } from './events.ts';
import type { StateKey } from './feature.ts';
import { emptyOutbox, type PersistOutbox } from './persist-intents.ts';
import type { Plan } from './plan.ts';
import { Rng } from './rng.ts';
import { SpatialGrid } from './spatial-grid.ts';

/**
 * The game world: the bitecs world and its components, the side tables for data that is not numeric,
 * and the per-tick outputs (events, spawns, despawns, persistence intents). Created per instance:
 * no module-level state. Time is `tick`; randomness is `rng`.
 */

export interface PlayerData {
  eid: number;
  characterId: string;
  accountId: string;
  /** Authoritative character state (inventory, equipment, bank, coins, skills). Position and health
   *  live in components while in the world and are copied back by snapshotCharacter(). */
  state: CharacterState;
  admin: boolean;
  /** Send player:sync after this tick. */
  syncDirty: boolean;
  joinedTick: number;
}

export interface WorldOptions {
  content: SimContent;
  seed: number;
  /** Most entities alive at once (typed-array size). */
  capacity?: number;
  /** View distance in tiles (contract: 15..64). */
  viewDistance?: number;
  /** Length of a tick in ms, to turn seconds-based rules (trade expiry) into ticks. */
  tickMs?: number;
  /** Pathfinding budget: nodes A* may expand per tick across all requests. */
  pathBudget?: number;
  /** Game rules an operator may set (defaults in the features). */
  rules?: Partial<GameRules>;
}

/** Settings of the game's rules, from the server's configuration. */
export interface GameRules {
  /** Seconds between two completed home teleports (HOME_TELEPORT_COOLDOWN). */
  homeTeleportCooldownSeconds: number;
}

export interface CoreWorldOptions extends WorldOptions {
  plan: Plan;
}

export interface GameWorld {
  readonly ecs: World;
  readonly c: Components;
  readonly content: SimContent;
  readonly rng: Rng;
  readonly capacity: number;
  readonly viewDistance: number;
  readonly tickMs: number;
  tick: number;
  /**
   * Wall-clock time of this tick (epoch ms), supplied by the loop: for timestamps in events, and for the
   * few rules that must outlast a restart (a persisted cooldown). Never read from a clock in ecs/.
   */
  nowMs: number;
  readonly grid: SpatialGrid;
  /** Stable wire id per eid (eids are reused, wire ids never). */
  readonly wireIds: (string | undefined)[];
  readonly eidByWireId: Map<string, number>;
  readonly players: Map<string, PlayerData>;
  readonly playerByEid: Map<number, PlayerData>;
  /** Lower-cased name -> player, for private messages and admin commands. */
  readonly playersByName: Map<string, PlayerData>;
  /** The features of this world, compiled: command and action tables, systems, reactions. */
  readonly plan: Plan;
  /** The options the world was made with (feature states read their settings here). */
  readonly options: Readonly<WorldOptions>;
  /** A feature's per-world state, created on first use. */
  get<S>(key: StateKey<S>): S;
  // ---- per-tick outputs, reset at the start of every tick ----
  events: SimEvent[];
  /** Entities created this tick. */
  spawned: number[];
  /** Entities removed this tick (their eids are freed at the start of the next tick). */
  despawned: { eid: number; wireId: string }[];
  /** Entities whose Replicated.dirty mask is non-zero this tick. */
  changed: number[];
  persist: PersistOutbox;
  /** eids to free at the start of the next tick (so replication can still read them this tick). */
  pendingRemoval: number[];
}

// Imported bindings are getters under tsx's module transform: hot constants copied into locals once.
const DIRTY_POSITION = Dirty.position;

export const DEFAULT_VIEW_DISTANCE = 24;
export const DEFAULT_CAPACITY = 131_072;

/** A world of the given plan, without content placed (see ecs/game.ts for the game's own). */
export function createWorldFromPlan(opts: CoreWorldOptions): GameWorld {
  const capacity = opts.capacity ?? DEFAULT_CAPACITY;
  const viewDistance = opts.viewDistance ?? DEFAULT_VIEW_DISTANCE;
  if (viewDistance < 15 || viewDistance > 64) throw new Error('viewDistance must be within 15..64 tiles');
  const map = opts.content.map;
  const states = new Map<StateKey<unknown>, unknown>();
  return {
    ecs: createWorld(),
    c: createComponents(capacity),
    content: opts.content,
    rng: new Rng(opts.seed),
    capacity,
    viewDistance,
    tickMs: opts.tickMs ?? 600,
    tick: 0,
    nowMs: 0,
    grid: new SpatialGrid(map.minX, map.minZ, map.width, map.depth, capacity),
    wireIds: [],
    eidByWireId: new Map(),
    players: new Map(),
    playerByEid: new Map(),
    playersByName: new Map(),
    plan: opts.plan,
    options: opts,
    get<S>(this: GameWorld, key: StateKey<S>): S {
      let state = states.get(key);
      if (state === undefined) {
        state = key.create(this);
        states.set(key, state);
      }
      return state as S;
    },
    events: [],
    spawned: [],
    despawned: [],
    changed: [],
    persist: emptyOutbox(),
    pendingRemoval: [],
  };
}

/** Ticks in `seconds` of game time at this world's tick length (at least 1). */
export function ticksFor(world: GameWorld, seconds: number): number {
  return Math.max(1, Math.round((seconds * 1000) / world.tickMs));
}

export function emit<K extends SimEventKind>(
  world: GameWorld,
  to: string,
  kind: K,
  data: SimEventData[K],
): void {
  world.events.push({ to, kind, data } as SimEvent);
}

export function emitError(
  world: GameWorld,
  to: string,
  code: SimEventData['error']['code'],
  message: string,
  origin: string | undefined,
): void {
  emit(world, to, 'error', { code, message, event: origin ?? null });
}

/** Mark public fields of an entity as changed this tick (for replication). */
export function markDirty(world: GameWorld, eid: number, bits: number): void {
  const d = world.c.Replicated.dirty;
  if (d[eid] === 0) world.changed.push(eid);
  d[eid] = (d[eid] as number) | bits;
}

/** Create an entity of a type at a tile, with a stable wire id, in the grid. */
export function spawnEntity(
  world: GameWorld,
  type: EntityTypeName,
  wireId: string,
  x: number,
  z: number,
): number {
  if (world.eidByWireId.has(wireId)) throw new Error(`wire id already in use: ${wireId}`);
  const eid = addEntity(world.ecs);
  if (eid >= world.capacity) {
    removeEntity(world.ecs, eid);
    throw new Error(`world is full (capacity ${world.capacity})`);
  }
  const { c } = world;
  addComponent(world.ecs, eid, c.Position);
  addComponent(world.ecs, eid, c.Kind);
  addComponent(world.ecs, eid, c.Replicated);
  c.Position.x[eid] = x;
  c.Position.z[eid] = z;
  c.Position.y[eid] = 0;
  c.Kind.type[eid] = EntityType[type];
  c.Replicated.dirty[eid] = 0;
  c.Movement.mode[eid] = MoveMode.idle;
  c.Movement.step[eid] = 0;
  const tag =
    type === 'player'
      ? c.Player
      : type === 'npc'
        ? c.Npc
        : type === 'item'
          ? c.GroundItem
          : type === 'station'
            ? c.Station
            : c.Resource;
  addComponent(world.ecs, eid, tag);
  if (type === 'player' || type === 'npc') {
    addComponent(world.ecs, eid, c.Movement);
    addComponent(world.ecs, eid, c.Health);
  }
  world.wireIds[eid] = wireId;
  world.eidByWireId.set(wireId, eid);
  world.grid.insert(eid, x, z);
  world.spawned.push(eid);
  return eid;
}

/**
 * Remove an entity from the world now (grid, wire id, side tables are the caller's), but free its eid
 * only at the start of the next tick so this tick's replication can still describe the removal.
 */
export function despawnEntity(world: GameWorld, eid: number): void {
  const wireId = world.wireIds[eid];
  if (wireId === undefined) return;
  world.grid.remove(eid);
  world.eidByWireId.delete(wireId);
  world.wireIds[eid] = undefined;
  world.despawned.push({ eid, wireId });
  world.pendingRemoval.push(eid);
}

/** Start of a tick: free last tick's despawned eids, clear per-tick outputs and dirty masks. */
export function beginTick(world: GameWorld, nowMs: number): void {
  for (const eid of world.pendingRemoval) removeEntity(world.ecs, eid);
  world.pendingRemoval = [];
  const d = world.c.Replicated.dirty;
  for (const eid of world.changed) d[eid] = 0;
  world.changed = [];
  world.spawned = [];
  world.despawned = [];
  world.events = [];
  world.persist = emptyOutbox();
  world.tick += 1;
  world.nowMs = nowMs;
}

export function markPosition(world: GameWorld, eid: number, x: number, z: number): void {
  const p = world.c.Position;
  if (p.x[eid] === x && p.z[eid] === z) return;
  p.x[eid] = x;
  p.z[eid] = z;
  world.grid.move(eid, x, z);
  markDirty(world, eid, DIRTY_POSITION);
}

/** The character's full state with position and health copied back from components. */
export function snapshotCharacter(world: GameWorld, player: PlayerData): CharacterState {
  const { c } = world;
  const s = player.state;
  return structuredClone({
    ...s,
    position: {
      x: c.Position.x[player.eid] as number,
      y: c.Position.y[player.eid] as number,
      z: c.Position.z[player.eid] as number,
    },
    health: c.Health.current[player.eid] as number,
  });
}

/** Entities in the world by type (despawned ones excluded), for /status and the world summary. */
export function entityCounts(world: GameWorld): Record<EntityTypeName, number> {
  const counts: Record<EntityTypeName, number> = { player: 0, npc: 0, item: 0, resource: 0, station: 0 };
  const kind = world.c.Kind.type;
  for (let eid = 0; eid < world.wireIds.length; eid++) {
    if (world.wireIds[eid] === undefined) continue;
    const name = ENTITY_TYPE_NAMES[kind[eid] as number];
    if (name) counts[name] += 1;
  }
  return counts;
}
