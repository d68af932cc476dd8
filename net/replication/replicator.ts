import type { GameWorld } from '../../ecs/core/world.ts';
import { FragmentCache } from './encode.ts';
import {
  createObserver,
  createScratch,
  knows,
  type Observer,
  type ObserverDelta,
  observe,
  prepareScratch,
  type ViewScratch,
} from './observer.ts';

/**
 * Replication for one world: an observer per player in the world, and per tick the world:update delta
 * each of them receives. collect() depends only on the world and the observers' known sets, so scenario
 * tests call it after stepping and assert on exactly what each player would be sent.
 */
export class Replicator {
  readonly observers = new Map<string, Observer>();
  readonly cache: FragmentCache;
  private readonly scratch: ViewScratch;

  constructor(private readonly world: GameWorld) {
    this.cache = new FragmentCache(world);
    this.scratch = createScratch(world);
  }

  /**
   * Deltas of this tick, one per player with something to say (none when nothing changed in its view).
   * Call once per tick, after stepWorld.
   */
  collect(): ObserverDelta[] {
    const { world, observers, scratch } = this;
    for (const [id, obs] of observers) {
      const p = world.players.get(id);
      if (p === undefined || p.eid !== obs.eid) observers.delete(id);
    }
    prepareScratch(world, scratch);
    const out: ObserverDelta[] = [];
    for (const [id, p] of world.players) {
      let obs = observers.get(id);
      if (obs === undefined) {
        obs = createObserver(world, id, p.eid);
        observers.set(id, obs);
      }
      const d = observe(world, obs, scratch);
      if (
        d.entered.length +
          d.enteredCells.length +
          d.changed.length +
          d.changedCells.length +
          d.removed.length >
        0
      )
        out.push(d);
    }
    return out;
  }

  /** Whether this player currently knows (sees) the entity with this wire id. */
  knows(characterId: string, wireId: string): boolean {
    const eid = this.world.eidByWireId.get(wireId);
    const obs = this.observers.get(characterId);
    return eid !== undefined && obs !== undefined && knows(obs, eid);
  }
}
