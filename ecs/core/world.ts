import { addComponent, addEntity, createWorld, removeEntity } from 'bitecs';
import type { CharacterState } from './character-state.ts';
import {
  createComponents,
  Dirty,
  ENTITY_TYPE_NAMES,
  ENTITY_TYPES,
  EntityType,
  type EntityTypeName,
  MoveMode,
} from './components.ts';
import type { SimEvent, SimEventData, SimEventKind } from './events.ts';
import { emptyOutbox } from './persist-intents.ts';
import { Rng } from './rng.ts';
import type { CoreWorldOptions, GameWorld, PlayerData, StateKey } from './shapes.ts';
import { SpatialGrid } from './spatial-grid.ts';

export type {
  CoreWorldOptions,
  GameRules,
  GameWorld,
  PlayerData,
  WorldOptions,
} from './shapes.ts';

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
  world.grid.clearEntered();
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
  const counts = Object.fromEntries(ENTITY_TYPES.map((t) => [t, 0])) as Record<EntityTypeName, number>;
  const kind = world.c.Kind.type;
  for (let eid = 0; eid < world.wireIds.length; eid++) {
    if (world.wireIds[eid] === undefined) continue;
    const name = ENTITY_TYPE_NAMES[kind[eid] as number];
    if (name) counts[name] += 1;
  }
  return counts;
}
