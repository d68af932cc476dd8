import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { EntityType } from '../../ecs/core/components.ts';
import { spawnEntity } from '../../ecs/core/world.ts';
import { groundItemVisibleTo } from '../../ecs/features/ground-items/ground-items.ts';
import { HYSTERESIS } from '../../net/replication/observer.ts';
import { Scenario } from '../scenario/harness.ts';
import { watchReplication } from '../scenario/watch.ts';

/**
 * Replication against a plain model of the view rule, over random crowds and random walks, runs and
 * teleports: after every tick each player's picture (built only from the world:update messages it got)
 * holds exactly the entities within view distance plus those it already knew within view + hysteresis,
 * each at its current tile. The fast paths (shared cell runs, skipped sweeps, cells whose every entity
 * was known at the last look and checked only for who entered them) must never change that: players
 * join in the middle of it, entities appear between ticks (outside the tick's own record of who
 * entered which cell), and players drop loot that only they see until it turns public, then despawns
 * (a tick is 10 s here, so both happen within a run).
 */

interface Seen {
  x: number;
  z: number;
}

/** An entity entering a picture comes with all its public fields, not as a change entry. */
function expectWhole(known: boolean, e: { id: string; type: string }): void {
  if (known) return;
  const whole = e.type === 'player' ? 'name' : e.type === 'resource' ? 'resourceId' : 'id';
  expect(e, `${e.id} enters with its ${whole}`).toHaveProperty(whole);
}

const chebyshev = (ax: number, az: number, bx: number, bz: number) =>
  Math.max(Math.abs(ax - bx), Math.abs(az - bz));

const move = fc.record({
  who: fc.nat(),
  dx: fc.integer({ min: -40, max: 40 }),
  dz: fc.integer({ min: -40, max: 40 }),
  kind: fc.constantFrom('walk', 'walk', 'run', 'tp', 'join', 'appear', 'drop', 'drop'),
});
type Move = typeof move extends fc.Arbitrary<infer T> ? T : never;
const ticksOf = (maxMoves: number) =>
  fc.array(fc.array(move, { maxLength: maxMoves }), { minLength: 1, maxLength: 25 });

/** The view rule holds over random worlds of these sizes (ranges are inclusive). */
function viewRuleHolds(o: {
  players: [number, number];
  view: [number, number];
  spread: [number, number];
  movesPerTick: number;
  runs: number;
}): void {
  const range = ([min, max]: [number, number]) => fc.integer({ min, max });
  fc.assert(
    fc.property(
      range(o.players),
      range(o.view),
      range(o.spread),
      ticksOf(o.movesPerTick),
      fc.integer({ min: 1, max: 1000 }),
      checkViewRule,
    ),
    { numRuns: o.runs },
  );
}

describe('replication matches the view rule', () => {
  it('every player sees exactly what the rule says, where it is', () => {
    viewRuleHolds({ players: [2, 30], view: [15, 30], spread: [8, 50], movesPerTick: 6, runs: 40 });
  });

  it('in a crowd (cells of many entities, some cut by the view edge yet wholly within keep range)', () => {
    viewRuleHolds({ players: [30, 70], view: [15, 20], spread: [6, 20], movesPerTick: 12, runs: 15 });
  });
});

describe('a crowd on one cell that players keep arriving in', () => {
  /** A player's picture (id -> its fields), from every world:update it was sent, applied in order. */
  const pictureOf = (w: ReturnType<typeof watchReplication>, id: string) => {
    const picture = new Map<string, Record<string, unknown>>();
    for (const u of w.updates(id)) {
      for (const gone of u.removed) picture.delete(gone);
      for (const e of u.entities) {
        expectWhole(picture.has(e.id), e);
        picture.set(e.id, { ...picture.get(e.id), ...e });
      }
    }
    return picture;
  };

  it('an arrival beyond view in a cell the observer knew whole is seen once it steps within view', () => {
    const view = 15;
    const s = new Scenario({ seed: 7, viewDistance: view });
    const { grid } = s.world;
    const spawn = s.world.content.spawn;
    const x0 = grid.colStart(grid.colOf(spawn.x));
    const z0 = grid.rowStart(grid.rowOf(spawn.z));
    const last = grid.cellSize - 1;
    // The crowd's cell lies wholly within keep range of the observer; its far column lies in the band
    // between view and keep.
    const observer = s.addPlayer({ name: 'Watcher', x: x0 + last - (view + HYSTERESIS), z: z0 + 3 });
    const crowd = Array.from({ length: 10 }, (_, i) =>
      s.addPlayer({ name: `C${i}`, x: x0 + (i % 3), z: z0 + (i % 7) }),
    );
    const w = watchReplication(s);
    s.step(2);
    for (const id of crowd) expect(pictureOf(w, observer).has(id), id).toBe(true);
    // Arrives on the far column: in the band, so not seen, though the observer knew the cell whole.
    const late = s.addPlayer({ name: 'Late', x: x0 + last, z: z0 + 3 });
    expect(s.position(late)).toEqual({ x: x0 + last, z: z0 + 3 });
    s.step();
    expect(pictureOf(w, observer).has(late)).toBe(false);
    // Steps within view without leaving the cell (no entry in the grid's record of this tick).
    s.push({ type: 'move', characterId: late, x: x0 + last - 3, z: z0 + 3, run: false });
    s.step(4);
    expect(grid.cellOfEntity(s.world.eidByWireId.get(late) as number)).toBe(grid.cellIndex(x0, z0));
    expect(pictureOf(w, observer).get(late)).toMatchObject({ name: 'Late', x: x0 + last - 3, health: 100 });
  });
});

function checkViewRule(
  count: number,
  viewDistance: number,
  spread: number,
  ticks: Move[][],
  seed: number,
): void {
  // Loot is its owner's for 6 ticks, everyone's until tick 18, then gone.
  const s = new Scenario({ seed, viewDistance, tickMs: 10_000 });
  const spawn = s.world.content.spawn;
  const ids: string[] = [];
  // Teleports go through the admin command (a jump the scan cannot follow: the sweep must).
  const join = (i: number, x: number, z: number) => {
    const id = s.addPlayer({ name: `P${i}`, x, z, inventory: [{ itemId: 'feather', quantity: 1000 }] });
    s.push({ type: 'setAdmin', characterId: id });
    ids.push(id);
    pictures.set(id, new Map());
    cursor.set(id, 0);
  };
  const pictures = new Map<string, Map<string, Seen>>();
  const cursor = new Map<string, number>();
  const w = watchReplication(s);
  for (let i = 0; i < count; i++) {
    join(i, spawn.x + ((i * 7) % spread) - (spread >> 1), spawn.z + ((i * 13) % spread) - (spread >> 1));
  }
  // Entities made between ticks, as a test or a tool might (the tick's record of who entered which
  // cell has not seen them).
  let looseMade = 0;
  s.step();
  const keep = viewDistance + HYSTERESIS;
  // What each player was told since the last check, applied in order (a join steps a tick).
  const catchUp = (id: string) => {
    const picture = pictures.get(id) as Map<string, Seen>;
    const list = w.updates(id);
    for (let i = cursor.get(id) ?? 0; i < list.length; i++) {
      const update = list[i];
      for (const gone of update?.removed ?? []) picture.delete(gone);
      for (const e of update?.entities ?? []) {
        expectWhole(picture.has(e.id), e);
        picture.set(e.id, { x: e.x, z: e.z });
      }
    }
    cursor.set(id, list.length);
  };
  for (const moves of ticks) {
    const before = new Map<string, Set<string>>();
    for (const id of ids) {
      catchUp(id);
      before.set(id, new Set((pictures.get(id) as Map<string, Seen>).keys()));
    }
    for (const m of moves) {
      const id = ids[m.who % ids.length] as string;
      const at = s.position(id);
      if (m.kind === 'tp') {
        const args = [String(at.x + m.dx * 2), String(at.z + m.dz * 2)];
        s.push({ type: 'chatCommand', characterId: id, name: 'tp', args });
      } else if (m.kind === 'join') {
        // Steps a tick of its own: the model below checks the state after this loop's step.
        join(ids.length, at.x + (m.dx >> 2), at.z + (m.dz >> 2));
        for (const other of ids) {
          catchUp(other);
          before.set(other, new Set((pictures.get(other) as Map<string, Seen>).keys()));
        }
      } else if (m.kind === 'drop') {
        s.push({ type: 'inventoryDrop', characterId: id, slot: 0, quantity: 1 });
      } else if (m.kind === 'appear') {
        spawnEntity(s.world, 'resource', `loose-${looseMade++}`, at.x + (m.dx >> 3), at.z + (m.dz >> 3));
      } else {
        s.push({
          type: 'move',
          characterId: id,
          x: at.x + m.dx,
          z: at.z + m.dz,
          run: m.kind === 'run',
        });
      }
    }
    s.step();
    const world = s.world;
    for (const id of ids) {
      const picture = pictures.get(id) as Map<string, Seen>;
      const knewBefore = before.get(id) ?? new Set<string>();
      catchUp(id);
      const me = s.position(id);
      const expected = new Set<string>();
      for (let eid = 0; eid < world.wireIds.length; eid++) {
        const wid = world.wireIds[eid];
        if (wid === undefined || !world.grid.has(eid)) continue;
        if (world.c.Kind.type[eid] === EntityType.item && !groundItemVisibleTo(world, eid, id)) continue;
        const d = chebyshev(world.c.Position.x[eid] as number, world.c.Position.z[eid] as number, me.x, me.z);
        if (d <= viewDistance || (knewBefore.has(wid) && d <= keep)) expected.add(wid);
      }
      expect([...picture.keys()].sort(), `${id} at tick ${world.tick}`).toEqual([...expected].sort());
      for (const [wid, seen] of picture) {
        const eid = world.eidByWireId.get(wid);
        if (eid === undefined) continue;
        expect(seen, `${id} sees ${wid}`).toEqual({
          x: world.c.Position.x[eid],
          z: world.c.Position.z[eid],
        });
      }
    }
  }
}
