import { describe, expect, it } from 'vitest';
import { Scenario } from '../../../tests/scenario/harness.ts';
import { populateWorld } from '../../core/populate.ts';
import { combatContent } from '../combat/combat-scenario-helpers.ts';
import { NPCS } from '../npcs/index.ts';
import { CAST_TICKS } from './state.ts';

function setup(rules?: { homeTeleportCooldownSeconds: number }) {
  const s = new Scenario(rules ? { rules } : {});
  const spawn = s.world.content.spawn;
  const id = s.addPlayer({ name: 'Homer', x: spawn.x + 6, z: spawn.z + 4 });
  const at = () => {
    const { eid } = s.player(id);
    return { x: s.world.c.Position.x[eid] as number, z: s.world.c.Position.z[eid] as number };
  };
  const cast = () => {
    s.push({ type: 'homeTeleport', characterId: id, origin: 'player:homeTeleport' });
    s.step();
  };
  return { s, id, spawn, at, cast };
}

describe('home teleport', () => {
  it('casts for 10 ticks, then stands the player on the spawn', () => {
    const { s, id, spawn, at, cast } = setup();
    const from = at();
    cast();
    expect(s.lastEvent(id, 'teleportStart')?.data).toEqual({ ticks: CAST_TICKS });
    s.step(CAST_TICKS - 1);
    expect(at()).toEqual(from);
    expect(s.eventsOf(id, 'teleportDone')).toEqual([]);
    s.step();
    expect(at()).toEqual({ x: spawn.x, z: spawn.z });
    expect(s.lastEvent(id, 'teleportDone')?.data).toEqual({ x: spawn.x, z: spawn.z });
    expect(s.player(id).state.position).toEqual({ x: spawn.x, y: 0, z: spawn.z });
  });

  it('a move, a hit or another action interrupts the cast', () => {
    for (const [interrupt, reason] of [
      ['move', 'moved'],
      ['damage', 'hit'],
      ['action', 'action'],
    ] as const) {
      const { s, id, at, cast } = setup();
      const from = at();
      cast();
      s.step(3);
      if (interrupt === 'move')
        s.push({ type: 'move', characterId: id, x: from.x + 1, z: from.z, run: false });
      if (interrupt === 'damage') s.push({ type: 'damage', characterId: id, amount: 1 });
      // Any action on something in view (here oneself, which is no bank) interrupts it.
      if (interrupt === 'action') s.push({ type: 'action', characterId: id, action: 'bank', targetId: id });
      s.step(CAST_TICKS);
      expect(s.eventsOf(id, 'teleportInterrupted').map((e) => e.data.reason)).toEqual([reason]);
      expect(s.eventsOf(id, 'teleportDone')).toEqual([]);
    }
  });

  it('is refused within 10 ticks of a hit (IN_COMBAT), allowed after', () => {
    const { s, id, cast } = setup();
    s.push({ type: 'damage', characterId: id, amount: 1 });
    s.step(5);
    cast();
    expect(s.lastEvent(id, 'error')?.data).toMatchObject({ code: 'IN_COMBAT', event: 'player:homeTeleport' });
    expect(s.eventsOf(id, 'teleportStart')).toEqual([]);
    s.step(5);
    cast();
    expect(s.eventsOf(id, 'teleportStart')).toHaveLength(1);
  });

  it('is refused within 10 ticks of attacking (IN_COMBAT), even unhurt', () => {
    // A training dummy never fights back: the only combat is the player's own swings.
    const s = new Scenario({
      content: combatContent([{ npcId: 'dummy', x: 101, z: 100, count: 1, radius: 0 }]),
    });
    populateWorld(s.world);
    const id = s.addPlayer({ name: 'Striker', x: 100, z: 100 });
    const dummy = [...s.world.get(NPCS).byEid.keys()][0] as number;
    s.push({ type: 'action', characterId: id, action: 'attack', targetId: s.world.wireIds[dummy] as string });
    s.step(2);
    expect(s.eventsOf(id, 'combatHit').some((e) => e.data.targetId === s.world.wireIds[dummy])).toBe(true);
    s.push({ type: 'moveCancel', characterId: id });
    s.push({ type: 'homeTeleport', characterId: id, origin: 'player:homeTeleport' });
    s.step();
    expect(s.lastEvent(id, 'error')?.data).toMatchObject({ code: 'IN_COMBAT' });
    expect(s.world.c.Health.current[s.player(id).eid]).toBe(s.world.c.Health.max[s.player(id).eid]);
  });

  it('after a completed teleport, the next waits out the cooldown, with the seconds left in the message', () => {
    const { s, id, cast } = setup({ homeTeleportCooldownSeconds: 60 });
    cast();
    s.step(CAST_TICKS);
    const landedAt = s.world.nowMs;
    expect(s.player(id).state.slices?.homeTeleport?.readyAtMs).toBe(landedAt + 60_000);
    cast();
    // 1 tick (600 ms) after landing: 60 - 0.6 s left, rounded up.
    expect(s.lastEvent(id, 'error')?.data).toMatchObject({
      code: 'COOLDOWN',
      message: expect.stringMatching(/\b60 seconds/),
    });
    s.step(100); // 60 s at 600 ms a tick
    cast();
    expect(s.eventsOf(id, 'teleportStart')).toHaveLength(2);
  });

  it('a second cast while casting is BUSY; leaving drops the cast silently', () => {
    const { s, id, cast } = setup();
    cast();
    cast();
    expect(s.lastEvent(id, 'error')?.data.code).toBe('BUSY');
    s.push({ type: 'leave', characterId: id, reason: 'logout' });
    s.step(CAST_TICKS);
    expect(s.eventsOf(id, 'teleportInterrupted')).toEqual([]);
    expect(s.eventsOf(id, 'teleportDone')).toEqual([]);
  });

  it('a cooldown carried in the loaded character (a relog) still applies', () => {
    const s = new Scenario();
    s.step(10);
    const id = s.addPlayer({ name: 'Relog' });
    const p = s.player(id);
    p.state.slices = { homeTeleport: { readyAtMs: s.world.nowMs + 30_000 } };
    s.push({ type: 'homeTeleport', characterId: id });
    s.step();
    expect(s.lastEvent(id, 'error')?.data.code).toBe('COOLDOWN');
  });
});
