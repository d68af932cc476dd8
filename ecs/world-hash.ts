import type { GameWorld } from './world.ts';

/**
 * A fingerprint of the simulation state: tick, generator state, and every live entity (wire id, type,
 * tile, height, health, movement, path) plus each player's items and coins. Same seed + same commands
 * must give the same hash on every run and machine (the determinism test replays a session with it).
 */
export function worldHash(world: GameWorld): string {
  let h1 = 0x811c9dc5;
  let h2 = 0x01000193;
  const mix = (n: number) => {
    h1 = Math.imul(h1 ^ (n | 0), 0x01000193) >>> 0;
    h2 = Math.imul(h2 ^ (n | 0), 0x5bd1e995) >>> 0;
    h2 = (h2 ^ (h2 >>> 15)) >>> 0;
  };
  const mixString = (s: string) => {
    mix(s.length);
    for (let i = 0; i < s.length; i++) mix(s.charCodeAt(i));
  };
  const { c } = world;
  mix(world.tick);
  for (const word of world.rng.state()) mix(word);
  for (let eid = 0; eid < world.wireIds.length; eid++) {
    const id = world.wireIds[eid];
    if (id === undefined) continue;
    mixString(id);
    mix(c.Kind.type[eid] as number);
    mix(c.Position.x[eid] as number);
    mix(c.Position.z[eid] as number);
    mix(Math.round((c.Position.y[eid] as number) * 1000));
    mix(c.Health.current[eid] as number);
    mix(c.Health.max[eid] as number);
    mix(c.Movement.mode[eid] as number);
    mix(c.Movement.step[eid] as number);
    const path = world.paths[eid];
    if (path) for (let i = 0; i < path.length; i++) mix(path[i] as number);
  }
  for (const p of world.players.values()) {
    mixString(p.characterId);
    mix(p.state.coins);
    mixString(JSON.stringify(p.state.inventory));
    mixString(JSON.stringify(p.state.equipment));
  }
  return h1.toString(16).padStart(8, '0') + h2.toString(16).padStart(8, '0');
}
