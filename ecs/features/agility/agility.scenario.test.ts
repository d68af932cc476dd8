import { describe, expect, it } from 'vitest';
import { testContent } from '../../../tests/helpers/sim-content.ts';
import { Scenario } from '../../../tests/scenario/harness.ts';
import { setSkillXp } from '../../core/players.ts';
import { populateWorld } from '../../core/populate.ts';
import { xpForLevel } from '../../core/skills.ts';
import type { ObstacleInfo } from './content.ts';
import { fallChance } from './crossing.ts';
import { AGILITY } from './state.ts';

/** Crossing obstacles in a small field: the verb, the level gate, falls, xp, and what a crossing refuses. */

const obstacle = (o: Partial<ObstacleInfo> & Pick<ObstacleInfo, 'id' | 'start' | 'end'>): ObstacleInfo => ({
  name: o.id,
  level: 1,
  xp: 7,
  ticks: 4,
  twoWay: false,
  failChance: 0,
  failDamage: 0,
  ...o,
});

const OBSTACLES = [
  obstacle({ id: 'log', name: 'Log balance', start: { x: 110, z: 100 }, end: { x: 116, z: 100 } }),
  obstacle({
    id: 'ridge',
    name: 'Rocky ridge',
    level: 10,
    xp: 10,
    ticks: 3,
    twoWay: true,
    start: { x: 120, z: 100 },
    end: { x: 120, z: 104 },
  }),
  obstacle({
    id: 'rope',
    name: 'Slack rope',
    failChance: 1,
    failDamage: 3,
    start: { x: 130, z: 100 },
    end: { x: 136, z: 100 },
  }),
];

function setup(at: { x: number; z: number }) {
  const s = new Scenario({
    content: { ...testContent(), obstacles: new Map(OBSTACLES.map((o) => [o.id, o])) },
  });
  populateWorld(s.world);
  const id = s.addPlayer({ name: 'Nimble', ...at });
  /** The wire id of the obstacle's entity on its start tile (or its end tile: `end`). */
  const side = (obstacleId: string, end = false) => {
    for (const [eid, side] of s.world.get(AGILITY).sides)
      if (side.obstacleId === obstacleId && side.reverse === end) return s.world.wireIds[eid] as string;
    throw new Error(`no ${obstacleId}`);
  };
  const cross = (obstacleId: string, end = false) => {
    s.push({
      type: 'action',
      characterId: id,
      action: 'cross',
      targetId: side(obstacleId, end),
      origin: 'player:action',
    });
    s.step();
  };
  const agility = () => s.player(id).state.skills.agility;
  return { s, id, cross, side, agility };
}

describe('agility', () => {
  it('crosses an obstacle: it takes its ticks, lands on its end and gives its xp', () => {
    const { s, id, cross, agility } = setup({ x: 109, z: 100 });
    cross('log');
    expect(s.lastEvent(id, 'agilityStart')?.data).toEqual({
      obstacleId: 'log',
      name: 'Log balance',
      ticks: 4,
      x: 116,
      z: 100,
    });
    s.step(3);
    expect(s.position(id)).toEqual({ x: 109, z: 100 });
    expect(s.eventsOf(id, 'agilityEnd')).toEqual([]);
    s.step();
    expect(s.position(id)).toEqual({ x: 116, z: 100 });
    expect(s.player(id).state.position).toEqual({ x: 116, y: 0, z: 100 });
    expect(s.lastEvent(id, 'agilityEnd')?.data).toEqual({ obstacleId: 'log', success: true, damage: 0 });
    expect(s.lastEvent(id, 'skillXp')?.data).toEqual({ skill: 'agility', xp: 7, gained: 7, level: 1 });
    expect(agility()).toEqual({ level: 1, xp: 7 });
  });

  it('walks to an obstacle out of reach first', () => {
    const { s, id, cross } = setup({ x: 100, z: 100 });
    cross('log');
    expect(s.eventsOf(id, 'agilityStart')).toEqual([]);
    s.step(12);
    expect(s.eventsOf(id, 'agilityStart')).toHaveLength(1);
    s.step(4);
    expect(s.position(id)).toEqual({ x: 116, z: 100 });
  });

  it('levels up like every skill', () => {
    const { s, id, cross, agility } = setup({ x: 109, z: 100 });
    setSkillXp(s.world, s.player(id), 'agility', xpForLevel(2) - 5);
    cross('log');
    s.step(4);
    expect(agility()).toEqual({ level: 2, xp: xpForLevel(2) + 2 });
    expect(s.lastEvent(id, 'skillXp')?.data).toMatchObject({ skill: 'agility', gained: 7, level: 2 });
  });

  it('needs the obstacle level (LEVEL_TOO_LOW), and a two-way shortcut is crossed from either end', () => {
    const { s, id, cross, agility } = setup({ x: 120, z: 99 });
    cross('ridge');
    expect(s.lastEvent(id, 'error')?.data).toMatchObject({ code: 'LEVEL_TOO_LOW', event: 'player:action' });
    expect(s.eventsOf(id, 'agilityStart')).toEqual([]);
    setSkillXp(s.world, s.player(id), 'agility', xpForLevel(10));
    cross('ridge');
    s.step(3);
    expect(s.position(id)).toEqual({ x: 120, z: 104 });
    cross('ridge', true);
    s.step(3);
    expect(s.position(id)).toEqual({ x: 120, z: 100 });
    expect(agility().xp).toBe(xpForLevel(10) + 20);
  });

  it('a fall leaves the player where it stood, hurt and without xp', () => {
    const { s, id, cross, agility } = setup({ x: 129, z: 100 });
    const health = s.world.c.Health.current[s.player(id).eid] as number;
    cross('rope');
    s.step(4);
    expect(s.lastEvent(id, 'agilityEnd')?.data).toEqual({ obstacleId: 'rope', success: false, damage: 3 });
    expect(s.position(id)).toEqual({ x: 129, z: 100 });
    expect(s.world.c.Health.current[s.player(id).eid]).toBe(health - 3);
    expect(agility().xp).toBe(0);
    expect(s.eventsOf(id, 'skillXp')).toEqual([]);
  });

  it('while crossing, walking, acting and teleporting are BUSY; a hit does not stop it', () => {
    const { s, id, cross, side } = setup({ x: 109, z: 100 });
    cross('log');
    s.push({ type: 'move', characterId: id, x: 100, z: 100, run: false, origin: 'player:move' });
    s.push({
      type: 'action',
      characterId: id,
      action: 'cross',
      targetId: side('log'),
      origin: 'player:action',
    });
    s.push({ type: 'homeTeleport', characterId: id, origin: 'player:homeTeleport' });
    s.push({ type: 'damage', characterId: id, amount: 1 });
    s.step();
    expect(s.eventsOf(id, 'error').map((e) => [e.data.code, e.data.event])).toEqual([
      ['BUSY', 'player:move'],
      ['BUSY', 'player:action'],
      ['BUSY', 'player:homeTeleport'],
    ]);
    expect(s.eventsOf(id, 'agilityStart')).toHaveLength(1);
    s.step(3);
    expect(s.position(id)).toEqual({ x: 116, z: 100 });
    // Once across, the player walks again.
    s.push({ type: 'move', characterId: id, x: 117, z: 100, run: false });
    s.step();
    expect(s.position(id)).toEqual({ x: 117, z: 100 });
  });

  it('a player who dies or leaves half-way crosses nothing', () => {
    const { s, id, cross } = setup({ x: 109, z: 100 });
    cross('log');
    s.push({ type: 'damage', characterId: id, amount: 1000 });
    s.step(5);
    expect(s.eventsOf(id, 'agilityEnd')).toEqual([]);
    expect(s.world.get(AGILITY).crossing.size).toBe(0);

    const other = setup({ x: 109, z: 100 });
    other.cross('log');
    other.s.push({ type: 'leave', characterId: other.id, reason: 'logout' });
    other.s.step();
    expect(other.s.world.get(AGILITY).crossing.size).toBe(0);
  });

  it('only obstacles are crossed (INVALID_TARGET)', () => {
    const { s, id } = setup({ x: 109, z: 100 });
    const other = s.addPlayer({ name: 'Bystander', x: 110, z: 101 });
    s.push({
      type: 'action',
      characterId: id,
      action: 'cross',
      targetId: s.world.wireIds[s.player(other).eid] as string,
      origin: 'player:action',
    });
    s.step();
    expect(s.lastEvent(id, 'error')?.data).toMatchObject({ code: 'INVALID_TARGET' });
  });

  it('the chance to fall is the obstacle’s at its level and none 20 levels above', () => {
    const o = obstacle({ id: 'o', level: 10, failChance: 0.4, start: { x: 0, z: 0 }, end: { x: 1, z: 0 } });
    expect(fallChance(o, 10)).toBeCloseTo(0.4);
    expect(fallChance(o, 20)).toBeCloseTo(0.2);
    expect(fallChance(o, 30)).toBe(0);
    expect(fallChance(o, 99)).toBe(0);
  });
});
