import type { ServerPayload } from './protocol.generated.ts';

/**
 * The client's local picture of the world, kept from `player:sync` (its own character) and
 * `world:update` (entities in view: an entity arrives with all its public fields, later updates carry
 * only what changed, and `removed` lists what left view).
 */

export type PlayerSync = ServerPayload<'player:sync'>;
export type WorldUpdate = ServerPayload<'world:update'>;
export type WireEntity = WorldUpdate['entities'][number];
/** A hit as a `world:update` entry shows it (`hits`), with the entity it landed on. */
export type ShownHit = NonNullable<WireEntity['hits']>[number] & { targetId: string };
/** A death as a `world:update` entry shows it (`death`), with the entity that died. */
export type ShownDeath = NonNullable<WireEntity['death']> & { id: string };

export class WorldView {
  /** The last `player:sync`: inventory, skills, health, coins... */
  self: PlayerSync | undefined;
  /** Own character id (from authResult). */
  selfId: string | undefined;
  /** Own tile, from `world:update` when it carries the character, else from `player:sync`. */
  position: { x: number; z: number } | undefined;
  /** Last tick seen in a `world:update`. */
  tick = 0;
  /** Entities in view by id, merged across updates (the own character excluded). */
  readonly entities = new Map<string, WireEntity>();
  /**
   * What the last `world:update` showed: every hit and death of its tick on an entity in view (the own
   * character included), each once. They are not kept on the entities: they belong to their tick.
   */
  hits: ShownHit[] = [];
  deaths: ShownDeath[] = [];

  applySync(sync: PlayerSync): void {
    this.self = sync;
    this.position = { x: Math.round(sync.position.x), z: Math.round(sync.position.z) };
  }

  applyUpdate(update: WorldUpdate): void {
    this.tick = update.tick;
    this.hits = [];
    this.deaths = [];
    for (const entry of update.entities) {
      const { hits, death, ...e } = entry;
      if (hits !== undefined) for (const h of hits) this.hits.push({ ...h, targetId: e.id });
      if (death !== undefined) this.deaths.push({ ...death, id: e.id });
      if (e.id === this.selfId) {
        this.position = { x: e.x, z: e.z };
        continue;
      }
      const known = this.entities.get(e.id);
      this.entities.set(e.id, known === undefined ? { ...e } : { ...known, ...e });
    }
    for (const id of update.removed) this.entities.delete(id);
  }

  /** Entities in view of one type (`player`, `npc`, `item`, `resource`, `station`...). */
  ofType(type: string): WireEntity[] {
    return [...this.entities.values()].filter((e) => e.type === type);
  }

  /** Chebyshev distance from the own character to a tile. */
  distanceTo(x: number, z: number): number {
    const p = this.position;
    return p === undefined ? Number.POSITIVE_INFINITY : Math.max(Math.abs(p.x - x), Math.abs(p.z - z));
  }

  /** The nearest entity in view matching `pred`, or undefined. */
  nearest(pred: (e: WireEntity) => boolean): WireEntity | undefined {
    let best: WireEntity | undefined;
    let bestD = Number.POSITIVE_INFINITY;
    for (const e of this.entities.values()) {
      if (!pred(e)) continue;
      const d = this.distanceTo(e.x, e.z);
      if (d < bestD) {
        best = e;
        bestD = d;
      }
    }
    return best;
  }

  /** Free inventory slots, from the last `player:sync`. */
  freeSlots(): number {
    return this.self?.inventory.filter((s) => s === null).length ?? 0;
  }
}
