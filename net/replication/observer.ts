import type { GameWorld } from '../../ecs/world.ts';
import { REPLICATED_BITS, visibleTo } from './entity-fields.ts';

/**
 * View membership of one player. An entity enters view at Chebyshev distance <= view distance and leaves
 * at > view distance + HYSTERESIS, so an entity pacing on the edge does not flicker in and out.
 */

export const HYSTERESIS = 2;

export interface Observer {
  readonly characterId: string;
  readonly eid: number;
  /** eids this player currently knows (was told about and not told removed). */
  readonly known: Set<number>;
}

export interface ObserverDelta {
  characterId: string;
  /** eids that entered view this tick: sent with all public fields. */
  entered: number[];
  /** Known eids with replicated changes this tick. */
  changed: number[];
  /** Wire ids that left view or despawned. */
  removed: string[];
}

/** Scratch shared by all observers of a world within one tick. */
export interface ViewScratch {
  seen: Uint32Array;
  gen: number;
  /** eid -> wire id of entities despawned this tick (their wireIds entry is already cleared). */
  despawned: Map<number, string>;
}

export function createScratch(capacity: number): ViewScratch {
  return { seen: new Uint32Array(capacity), gen: 0, despawned: new Map() };
}

/**
 * What one observer learns this tick; updates its known set. Scans the grid square of view + hysteresis
 * around it, then its known set for what was not seen (left view, despawned, turned invisible).
 */
export function observe(world: GameWorld, obs: Observer, scratch: ViewScratch): ObserverDelta {
  scratch.gen = (scratch.gen + 1) >>> 0 || 1;
  const gen = scratch.gen;
  const { seen } = scratch;
  const { Position, Replicated } = world.c;
  const px = Position.x[obs.eid] as number;
  const pz = Position.z[obs.eid] as number;
  const view = world.viewDistance;
  const keep = view + HYSTERESIS;
  const { known } = obs;
  const entered: number[] = [];
  const changed: number[] = [];
  const removed: string[] = [];
  let seenCount = 0;
  world.grid.forEachInSquare(px, pz, keep, (eid) => {
    const dx = (Position.x[eid] as number) - px;
    const dz = (Position.z[eid] as number) - pz;
    const d = Math.max(dx < 0 ? -dx : dx, dz < 0 ? -dz : dz);
    if (known.has(eid)) {
      if (d > keep || !visibleTo(world, eid, obs.characterId)) return;
      seen[eid] = gen;
      seenCount++;
      if (((Replicated.dirty[eid] as number) & REPLICATED_BITS) !== 0) changed.push(eid);
    } else if (d <= view && visibleTo(world, eid, obs.characterId)) {
      seen[eid] = gen;
      seenCount++;
      known.add(eid);
      entered.push(eid);
    }
  });
  if (known.size > seenCount) {
    for (const eid of known) {
      if (seen[eid] === gen) continue;
      known.delete(eid);
      const wireId = world.wireIds[eid] ?? scratch.despawned.get(eid);
      if (wireId !== undefined) removed.push(wireId);
    }
  }
  return { characterId: obs.characterId, entered, changed, removed };
}
