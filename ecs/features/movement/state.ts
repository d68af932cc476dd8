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

/** A player whose energy is not full, or who runs: what the restore loop and the sync rate need. */
export interface EnergyTrack {
  readonly player: PlayerData;
  readonly slice: { runEnergy: number };
  /** The percent the last player:sync asked for carried. */
  sentPercent: number;
  sentTick: number;
  /** The last tick it drained energy by running (no restore that tick). */
  ranTick: number;
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
  /** Players whose run energy is not full or who run, by character id (run-energy.ts). */
  readonly energy: Map<string, EnergyTrack>;
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
    energy: new Map(),
  };
}

export const MOVE = defineState('movement', (world) =>
  createMoveState(world.capacity, world.options.pathBudget),
);
