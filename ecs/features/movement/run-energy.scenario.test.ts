import { describe, expect, it } from 'vitest';
import { testContent } from '../../../tests/helpers/sim-content.ts';
import { Scenario } from '../../../tests/scenario/harness.ts';
import { MoveMode } from '../../core/components.ts';
import { setSkillXp } from '../../core/players.ts';
import { snapshotCharacter } from '../../core/world.ts';
import {
  MAX_RUN_ENERGY,
  RUN_DRAIN,
  RUN_SYNC_TICKS,
  restorePerTick,
  runEnergy,
  setRunEnergy,
} from './run-energy.ts';

/** Run energy: drained by running, restored otherwise (faster with agility), kept across a relog. */

function world() {
  return new Scenario({ content: testContent({ npcSpawns: [] }) });
}
const energy = (s: Scenario, id: string) => runEnergy(s.world, s.player(id));
const setEnergy = (s: Scenario, id: string, value: number) => setRunEnergy(s.world, s.player(id), value);
const mode = (s: Scenario, id: string) => s.world.c.Movement.mode[s.player(id).eid];

describe('run energy', () => {
  it('a new character starts full; every tick of running costs 0.67 %', () => {
    const s = world();
    const id = s.addPlayer({ name: 'Runner', x: 20, z: 50 });
    expect(energy(s, id)).toBe(MAX_RUN_ENERGY);
    s.push({ type: 'move', characterId: id, x: 60, z: 50, run: true });
    s.step(10);
    expect(s.position(id)).toEqual({ x: 60, z: 50 });
    expect(energy(s, id)).toBe(MAX_RUN_ENERGY - 10 * RUN_DRAIN);
  });

  it('below one tick of drain the runner walks on (moving changes to 1); a run asked for at 0 is a walk', () => {
    const s = world();
    const id = s.addPlayer({ name: 'Tired', x: 20, z: 50 });
    setEnergy(s, id, RUN_DRAIN + 10);
    s.push({ type: 'move', characterId: id, x: 60, z: 50, run: true });
    s.step();
    expect([s.position(id).x, mode(s, id), energy(s, id)]).toEqual([24, MoveMode.run, 10]);
    s.step();
    expect([s.position(id).x, mode(s, id)]).toEqual([26, MoveMode.walk]);
    expect(s.world.changed).toContain(s.player(id).eid);

    const other = s.addPlayer({ name: 'Empty', x: 20, z: 60 });
    setEnergy(s, other, 0);
    s.push({ type: 'move', characterId: other, x: 60, z: 60, run: true });
    s.step();
    expect([s.position(other).x, mode(s, other)]).toEqual([22, MoveMode.walk]);
  });

  it('comes back while not running, faster at agility 50 than at 1, and stops at full', () => {
    const s = world();
    const slow = s.addPlayer({ name: 'Slow', x: 20, z: 50 });
    const fast = s.addPlayer({ name: 'Fast', x: 20, z: 52 });
    // Through the one place a level changes (what xp and admins use): the restore rate follows it.
    setSkillXp(s.world, s.player(fast), 'agility', 101_333);
    expect(s.player(fast).state.skills.agility.level).toBe(50);
    setEnergy(s, slow, 0);
    setEnergy(s, fast, 0);
    s.step(100);
    expect(energy(s, slow)).toBe(100 * restorePerTick(1));
    expect(energy(s, fast)).toBe(100 * restorePerTick(50));
    expect(restorePerTick(50)).toBeGreaterThan(restorePerTick(1));
    setEnergy(s, slow, MAX_RUN_ENERGY - 3);
    s.step(2);
    expect(energy(s, slow)).toBe(MAX_RUN_ENERGY);
  });

  it('walking restores it too', () => {
    const s = world();
    const id = s.addPlayer({ name: 'Walker', x: 20, z: 50 });
    setEnergy(s, id, 1000);
    s.push({ type: 'move', characterId: id, x: 60, z: 50, run: false });
    s.step(5);
    expect(energy(s, id)).toBe(1000 + 5 * restorePerTick(1));
  });

  it('player:energy carries each whole percent: at most every 5 ticks while draining, at once at 0; no player:sync', () => {
    const s = world();
    const id = s.addPlayer({ name: 'Runner', x: 10, z: 50 });
    s.step(RUN_SYNC_TICKS);
    const p = s.player(id);
    setEnergy(s, id, 20 * RUN_DRAIN);
    s.push({ type: 'move', characterId: id, x: 190, z: 50, run: true });
    const from = s.world.tick;
    let synced = 0;
    for (let t = 0; t < 25; t++) {
      p.syncDirty = false;
      s.step();
      if (p.syncDirty) synced++;
    }
    const sent = s
      .eventsOf(id, 'runEnergy')
      .filter((e) => e.tick > from)
      .map((e) => ({ tick: e.tick, percent: e.data.runEnergy }));
    const gaps = sent.slice(1).map((e, i) => e.tick - (sent[i] as { tick: number }).tick);
    expect(sent.length).toBeGreaterThanOrEqual(4);
    // The last one is 0, sent as soon as it was reached (20 ticks of running).
    expect(gaps.slice(0, -1).every((g) => g >= RUN_SYNC_TICKS)).toBe(true);
    expect(sent.at(-1)?.percent).toBe(0);
    expect(sent.map((e) => e.percent)).toEqual([...sent.map((e) => e.percent)].sort((a, b) => b - a));
    expect(energy(s, id)).toBeLessThan(RUN_DRAIN);
    expect(synced).toBe(0);
  });

  it('player:energy tells each whole percent regained while resting', () => {
    const s = world();
    const id = s.addPlayer({ name: 'Rester', x: 10, z: 50 });
    setEnergy(s, id, 5000);
    s.step();
    const from = s.world.tick;
    s.step(40);
    const percents = s
      .eventsOf(id, 'runEnergy')
      .filter((e) => e.tick > from)
      .map((e) => e.data.runEnergy);
    const now = Math.floor((energy(s, id) as number) / 100);
    expect(percents.at(-1)).toBe(now);
    expect(percents).toEqual(
      Array.from({ length: percents.length }, (_, i) => now - percents.length + 1 + i),
    );
  });

  it('is kept with the character: a relog with the saved snapshot has the same energy', () => {
    const s = world();
    const id = s.addPlayer({ name: 'Relog', x: 20, z: 50 });
    s.push({ type: 'move', characterId: id, x: 60, z: 50, run: true });
    s.step(10);
    const before = energy(s, id) as number;
    s.push({ type: 'leave', characterId: id, reason: 'logout' });
    s.step();
    const saved = s.world.persist.left.find((c) => c.id === id);
    expect(saved?.slices?.movement).toEqual({ runEnergy: before });
    s.push({ type: 'join', characterId: id, accountId: 'acct', state: saved as NonNullable<typeof saved> });
    s.step();
    expect(energy(s, id)).toBeGreaterThanOrEqual(before);
    expect(energy(s, id)).toBeLessThanOrEqual(before + restorePerTick(1));
    // In the world, what a save stores follows the live value to the whole percent.
    const kept = snapshotCharacter(s.world, s.player(id)).slices?.movement?.runEnergy as number;
    expect(Math.floor(kept / 100)).toBe(Math.floor(energy(s, id) / 100));
  });
});
