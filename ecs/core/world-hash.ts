import { Hasher } from './hasher.ts';
import type { GameWorld } from './world.ts';

/**
 * A fingerprint of the simulation state: the generator, every live entity (wire id, type, tile, height,
 * health, movement) and each feature's own state (paths, holdings and skills, trades, ground items,
 * resources, transactions: Feature.hash). Not the tick number: two worlds that reached the same state
 * hash the same, and a world whose state differs hashes differently, so the determinism test can fail.
 */
export function worldHash(world: GameWorld): string {
  const h = new Hasher();
  const { c } = world;
  for (const word of world.rng.state()) h.int(word);
  for (let eid = 0; eid < world.wireIds.length; eid++) {
    const id = world.wireIds[eid];
    if (id === undefined) continue;
    h.str(id);
    h.int(c.Kind.type[eid] as number);
    h.int(c.Position.x[eid] as number);
    h.int(c.Position.z[eid] as number);
    h.int(Math.round((c.Position.y[eid] as number) * 1000));
    h.int(c.Health.current[eid] as number);
    h.int(c.Health.max[eid] as number);
    h.int(c.Movement.mode[eid] as number);
    h.int(c.Movement.step[eid] as number);
  }
  for (const hash of world.plan.hash) hash(world, h);
  return h.digest();
}
