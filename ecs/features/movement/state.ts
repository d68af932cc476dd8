import { defineState } from '../../core/feature.ts';
import type { PlayerData } from '../../core/world.ts';
import type { AStar } from './astar.ts';

/**
 * Movement's per-world state: the FIFO of path requests, the search in progress, and the pathfinding
 * budget, and each entity's path. Per world: `world.get(MOVE)`.
 */

export interface PathRequest {
  eid: number;
  /** The entity's wire id when asked: a despawned (and reused) eid no longer matches. */
  wireId: string;
  /** Matches MoveState.seq[eid] while this is the entity's current request; a newer move supersedes it. */
  seq: number;
  x: number;
  z: number;
  run: boolean;
  /** Character to tell INVALID_TARGET (null for NPCs). */
  reportTo: string | null;
  origin: string | undefined;
}

/**
 * Run energy of the players in the world, per eid (run-energy.ts). Typed arrays: the restore loop visits
 * every resting player each tick, and with thousands online chasing each one's objects cost more than
 * the arithmetic.
 */
export interface EnergyTable {
  /** Hundredths of a percent: the live value. */
  readonly value: Int32Array;
  /** Restored per tick while not running (from the agility level). */
  readonly rate: Int32Array;
  /** The whole percent `player:energy` last carried. */
  readonly sentPercent: Int32Array;
  readonly sentTick: Int32Array;
  /** The whole percent last written to the character's slice (what a save stores). */
  readonly savedPercent: Int32Array;
  /** The last tick it drained energy by running (no restore that tick). */
  readonly ranTick: Int32Array;
  /** Position in `tracked` plus one; 0 when not tracked. */
  readonly slot: Int32Array;
  /** Players whose energy is not full, or who run. */
  readonly tracked: number[];
  readonly owner: (PlayerData | undefined)[];
}

export function createEnergyTable(capacity: number): EnergyTable {
  return {
    value: new Int32Array(capacity),
    rate: new Int32Array(capacity),
    sentPercent: new Int32Array(capacity),
    sentTick: new Int32Array(capacity),
    savedPercent: new Int32Array(capacity),
    ranTick: new Int32Array(capacity).fill(-1),
    slot: new Int32Array(capacity),
    tracked: [],
    owner: [],
  };
}

export interface MoveState {
  /**
   * Path per eid: packed [x0, z0, x1, z1, ...]; Movement.step indexes the next tile. Read only while the
   * entity's Movement.mode is not idle; a new request or a cancel clears it.
   */
  paths: (Int32Array | null)[];
  queue: PathRequest[];
  head: number;
  /** Current request sequence per eid (0: none pending). */
  seq: Uint32Array;
  nextSeq: number;
  /** The request whose search is in progress (resumed next tick when the budget ran out). */
  active: PathRequest | null;
  astar: AStar | null;
  /** Region label per tile, computed on first use. */
  regions: Int32Array | null;
  /** Nodes the pathfinder may expand per tick, across all requests. */
  budget: number;
  /** Statistics of the last tick (for metrics and tests). */
  lastExpanded: number;
  lastResolved: number;
  /** Run energy of the players in the world (run-energy.ts). */
  readonly energy: EnergyTable;
}

/** Default budget: ~5-10 ms of A* on this hardware in the worst case, far less for typical short paths. */
export const DEFAULT_PATH_BUDGET = 40_000;

/** Search box half-side: the 200-tile move limit plus room to walk around obstacles near the edge. */
export const SEARCH_BOUND = 216;

export const MAX_MOVE_DISTANCE = 200;

export function createMoveState(capacity: number, budget = DEFAULT_PATH_BUDGET): MoveState {
  return {
    paths: [],
    queue: [],
    head: 0,
    seq: new Uint32Array(capacity),
    nextSeq: 1,
    active: null,
    astar: null,
    regions: null,
    budget,
    lastExpanded: 0,
    lastResolved: 0,
    energy: createEnergyTable(capacity),
  };
}

export const MOVE = defineState('movement', (world) =>
  createMoveState(world.capacity, world.options.pathBudget),
);
