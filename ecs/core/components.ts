/**
 * bitecs components: plain objects of typed arrays indexed by entity id (eid), one set per world (no
 * module-level state, so tests can build many worlds). Variable-size or string data (names, paths,
 * inventories) lives in the world's side tables keyed by eid or character id.
 */

/** The kinds of entity, the one list (the wire's `type` enum is this array). */
export const ENTITY_TYPES = ['player', 'npc', 'item', 'resource', 'station'] as const;
export type EntityTypeName = (typeof ENTITY_TYPES)[number];
/** Kind.type of each entity type: its position in ENTITY_TYPES plus one (0 is a free eid). */
export const EntityType = Object.freeze(
  Object.fromEntries(ENTITY_TYPES.map((t, i) => [t, i + 1])) as { readonly [T in EntityTypeName]: number },
);
/** Kind.type -> name; a free eid (0) reads as a player, as replication has always done. */
export const ENTITY_TYPE_NAMES: readonly EntityTypeName[] = ['player', ...ENTITY_TYPES];

/** Bits of Replicated.dirty: which public fields changed this tick. */
export const Dirty = {
  position: 1 << 0,
  health: 1 << 1,
  level: 1 << 2,
  name: 1 << 3,
  quantity: 1 << 4,
  depleted: 1 << 5,
  moving: 1 << 6,
  visibility: 1 << 7,
  /** The entity it fights (world:update `targetId`). */
  target: 1 << 8,
  /** Hits or a death shown on it this tick (world:update `hits`, `death`): presentation, not state. */
  shown: 1 << 9,
} as const;

/** Movement modes (Movement.mode). */
export const MoveMode = { idle: 0, walk: 1, run: 2 } as const;

export function createComponents(capacity: number) {
  return {
    /** Tile position; y is the ground height (never sent by clients). */
    Position: { x: new Int32Array(capacity), z: new Int32Array(capacity), y: new Float32Array(capacity) },
    Kind: { type: new Uint8Array(capacity) },
    /** mode: MoveMode; step: index of the next tile in the world's path table. */
    Movement: { mode: new Uint8Array(capacity), step: new Int32Array(capacity) },
    Health: { current: new Int32Array(capacity), max: new Int32Array(capacity) },
    /** Field mask of what changed this tick, read by replication and cleared at the start of the next. */
    Replicated: { dirty: new Uint32Array(capacity) },
    /** NPC wander: origin and radius of its spawn, and the tick it may next pick a tile. */
    Wander: {
      originX: new Int32Array(capacity),
      originZ: new Int32Array(capacity),
      radius: new Int32Array(capacity),
      nextTick: new Uint32Array(capacity),
    },
    Player: {},
    Npc: {},
    GroundItem: {},
    Resource: {},
    Station: {},
  };
}

export type Components = ReturnType<typeof createComponents>;
