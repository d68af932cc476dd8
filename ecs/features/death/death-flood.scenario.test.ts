import { describe, expect, it } from 'vitest';
import { addTotals, FakeItemDb, sorted } from '../../../tests/property/fake-db.ts';
import { Scenario } from '../../../tests/scenario/harness.ts';
import { populateWorld } from '../../core/populate.ts';
import { snapshotCharacter } from '../../core/world.ts';
import { combatContent } from '../combat/combat-scenario-helpers.ts';
import { GROUND_ITEMS } from '../ground-items/index.ts';

/**
 * Death that nothing postpones: a player at 0 health dies in the tick its health reached 0, however many
 * item moves it sends (each changes its items in that very tick). The strict fake database takes every
 * tick's outbox as persistence does (death locks first, then snapshots), so a death lock whose `before`
 * the database does not hold yet shows as a violation, and every item is counted across the death.
 */

const START = [
  { itemId: 'logs', quantity: 1 },
  { itemId: 'feather', quantity: 12 },
  { itemId: 'bronze_sword', quantity: 1 },
  { itemId: 'bones', quantity: 1 },
  { itemId: 'shrimp', quantity: 1 },
];

function dying(content = combatContent()) {
  const s = new Scenario({ content });
  populateWorld(s.world); // the NPCs of the content
  const db = new FakeItemDb();
  const id = s.addPlayer({ name: 'Flooder', x: 40, z: 60, coins: 50, inventory: START });
  db.create(snapshotCharacter(s.world, s.player(id)));
  s.afterTick.push((w) =>
    db.take(w.persist, (cid) => {
      const p = w.players.get(cid);
      return p ? snapshotCharacter(w, p) : undefined;
    }),
  );
  const moves = (n: number) => {
    for (let i = 0; i < n; i++)
      s.push({
        type: 'inventoryMove',
        characterId: id,
        from: i % 2,
        to: (i + 1) % 2,
        origin: 'inventory:move',
      });
  };
  /** Every item in the world that is or was the player's: its holdings and the ground. */
  const worldTotals = () => {
    const m = new Map<string, number>();
    addTotals(m, s.player(id).state);
    for (const g of s.world.get(GROUND_ITEMS).byEid.values())
      m.set(g.itemId, (m.get(g.itemId) ?? 0) + g.quantity);
    return sorted(m);
  };
  return { s, db, id, moves, worldTotals, start: worldTotals() };
}

describe('a death no item move postpones', () => {
  it('dies in the tick health reaches 0 while item moves flood in; no item duplicated or lost', () => {
    const { s, db, id, moves, worldTotals, start } = dying();
    expect(sorted(db.totals())).toEqual(start);
    moves(4);
    s.step();
    // The killing tick: moves before the damage change the items; the damage takes health to 0.
    moves(3);
    s.push({ type: 'damage', characterId: id, amount: 500 });
    moves(3);
    s.step();
    const deathTick = s.world.tick;
    expect(s.eventsOf(id, 'entityDeath').map((e) => e.tick)).toEqual([deathTick]);
    expect(s.world.c.Health.current[s.player(id).eid]).toBe(100);
    expect(s.position(id)).toEqual(s.world.content.spawn);
    expect(s.world.get(GROUND_ITEMS).byEid.size).toBeGreaterThan(0);
    // The moves queued behind the killing blow come from a dead player: refused, nothing changed.
    const refused = s.eventsOf(id, 'error').filter((e) => e.tick === deathTick);
    expect(refused.map((e) => e.data.code)).toEqual(['BUSY', 'BUSY', 'BUSY']);
    expect(refused.every((e) => e.data.event === 'inventory:move')).toBe(true);
    // Alive again: the flood goes on, and nothing more dies or drops.
    for (let t = 0; t < 5; t++) {
      moves(2);
      s.step();
    }
    expect(s.eventsOf(id, 'entityDeath')).toHaveLength(1);
    expect(db.violations).toEqual([]);
    expect(worldTotals()).toEqual(start);
    // In the database: what the player kept plus what its death locks hold, the same totals.
    expect(sorted(db.totals())).toEqual(start);
    expect(db.locks.size).toBe(s.world.get(GROUND_ITEMS).byEid.size);
  });

  it('a killing blow in combat dies in that tick too, whatever moved the items earlier in it', () => {
    const content = combatContent([{ npcId: 'brute', x: 41, z: 60, count: 1, radius: 0 }]);
    const { s, db, id, moves, worldTotals, start } = dying(content);
    const brute = [...s.world.eidByWireId.keys()].find((w) => w.startsWith('npc-')) as string;
    s.push({ type: 'action', characterId: id, action: 'attack', targetId: brute });
    let died = -1;
    for (let t = 0; t < 400 && died < 0; t++) {
      const before = s.world.c.Health.current[s.player(id).eid] as number;
      moves(2);
      s.step();
      if (s.eventsOf(id, 'entityDeath').length > 0) {
        died = s.world.tick;
        // The hit of this very tick took it to 0: its combat:hit says so, in the same tick.
        const hit = s.eventsOf(id, 'combatHit').filter((e) => e.tick === died && e.data.targetId === id);
        expect(before).toBeGreaterThan(0);
        expect(hit.at(-1)?.data.targetHealth).toBe(0);
      }
    }
    expect(died).toBeGreaterThan(0);
    expect(db.violations).toEqual([]);
    expect(worldTotals()).toEqual(start);
    expect(sorted(db.totals())).toEqual(start);
  });
});
