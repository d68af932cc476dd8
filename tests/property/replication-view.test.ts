import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { HYSTERESIS } from '../../net/replication/observer.ts';
import { Scenario } from '../scenario/harness.ts';
import { watchReplication } from '../scenario/watch.ts';

/**
 * Replication against a plain model of the view rule, over random crowds and random walks, runs and
 * teleports: after every tick each player's picture (built only from the world:update messages it got)
 * holds exactly the entities within view distance plus those it already knew within view + hysteresis,
 * each at its current tile. The fast paths (shared cell runs, skipped sweeps) must never change that.
 */

interface Seen {
  x: number;
  z: number;
}

const chebyshev = (ax: number, az: number, bx: number, bz: number) =>
  Math.max(Math.abs(ax - bx), Math.abs(az - bz));

describe('replication matches the view rule', () => {
  it('every player sees exactly what the rule says, where it is', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 2, max: 14 }),
        fc.integer({ min: 15, max: 30 }),
        fc.array(
          fc.array(
            fc.record({
              who: fc.nat(),
              dx: fc.integer({ min: -40, max: 40 }),
              dz: fc.integer({ min: -40, max: 40 }),
              kind: fc.constantFrom('walk', 'run', 'tp'),
            }),
            { maxLength: 6 },
          ),
          { minLength: 1, maxLength: 25 },
        ),
        fc.integer({ min: 1, max: 1000 }),
        (count, viewDistance, ticks, seed) => {
          const s = new Scenario({ seed, viewDistance });
          const spawn = s.world.content.spawn;
          const ids: string[] = [];
          for (let i = 0; i < count; i++) {
            ids.push(
              s.addPlayer({
                name: `P${i}`,
                x: spawn.x + ((i * 7) % 50) - 25,
                z: spawn.z + ((i * 13) % 50) - 25,
              }),
            );
          }
          // Teleports go through the admin command (a jump the scan cannot follow: the sweep must).
          for (const id of ids) s.push({ type: 'setAdmin', characterId: id });
          s.step();
          const w = watchReplication(s);
          const pictures = new Map<string, Map<string, Seen>>(ids.map((id) => [id, new Map()]));
          const keep = viewDistance + HYSTERESIS;
          for (const moves of ticks) {
            for (const m of moves) {
              const id = ids[m.who % ids.length] as string;
              const at = s.position(id);
              if (m.kind === 'tp') {
                const args = [String(at.x + m.dx * 2), String(at.z + m.dz * 2)];
                s.push({ type: 'chatCommand', characterId: id, name: 'tp', args });
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
              const before = new Set(picture.keys());
              const update = w.now(id);
              for (const gone of update?.removed ?? []) picture.delete(gone);
              for (const e of update?.entities ?? []) picture.set(e.id, { x: e.x, z: e.z });
              const me = s.position(id);
              const expected = new Set<string>();
              for (let eid = 0; eid < world.wireIds.length; eid++) {
                const wid = world.wireIds[eid];
                if (wid === undefined || !world.grid.has(eid)) continue;
                const d = chebyshev(
                  world.c.Position.x[eid] as number,
                  world.c.Position.z[eid] as number,
                  me.x,
                  me.z,
                );
                if (d <= viewDistance || (before.has(wid) && d <= keep)) expected.add(wid);
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
        },
      ),
      { numRuns: 40 },
    );
  });
});
