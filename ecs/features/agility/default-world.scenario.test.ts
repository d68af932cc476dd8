import { describe, expect, it } from 'vitest';
import { defaultManifests } from '../../../tests/fixtures/content/paths.ts';
import { Scenario } from '../../../tests/scenario/harness.ts';
import { loadContent } from '../../../world/loader.ts';
import { toSimContent } from '../../../world/sim-content.ts';
import { setSkillXp } from '../../core/players.ts';
import { populateWorld } from '../../core/populate.ts';
import { xpForLevel } from '../../core/skills.ts';
import { AGILITY } from './state.ts';

/**
 * The default world (world/assets/manifests) trains agility from level 1: a course near the spawn, and
 * the Stonegap Quarry shortcut that skill-unlocks.json promises at level 10, over a ridge nobody walks.
 */
describe('agility in the default world', async () => {
  const loaded = await loadContent(defaultManifests);
  const content = toSimContent(loaded);
  const obstacles = [...(content.obstacles?.values() ?? [])];
  const course = obstacles.filter((o) => o.id.startsWith('emberfold_'));
  const shortcut = content.obstacles?.get('stonegap_ridge_scramble');

  it('has a level-1 course near the spawn and the level-10 Stonegap Quarry shortcut skill-unlocks.json promises', () => {
    const near = (p: { x: number; z: number }) =>
      Math.max(Math.abs(p.x - content.spawn.x), Math.abs(p.z - content.spawn.z)) <= 40;
    const inView = (p: { x: number; z: number }) =>
      Math.max(Math.abs(p.x - content.spawn.x), Math.abs(p.z - content.spawn.z)) <= 24;
    expect(course.length).toBeGreaterThanOrEqual(3);
    expect(course.every((o) => o.level === 1 && near(o.start) && near(o.end))).toBe(true);
    // Out of the spawn's own view, so the busy spawn's first world:update is the same as before.
    expect(course.some((o) => inView(o.start) || inView(o.end))).toBe(false);
    expect(shortcut).toMatchObject({ level: 10, twoWay: true });
    const quarry = content.worldAreas.find((a) => a.name === 'Stonegap Quarry');
    const inQuarry = (p: { x: number; z: number }) =>
      !!quarry && p.x >= quarry.minX && p.x <= quarry.maxX && p.z >= quarry.minZ && p.z <= quarry.maxZ;
    expect(shortcut && inQuarry(shortcut.start) && inQuarry(shortcut.end)).toBe(true);
    const unlocks = loaded.skillUnlocks.agility;
    expect(unlocks).toContainEqual(
      expect.objectContaining({ level: 10, description: 'Stonegap Quarry shortcuts' }),
    );
    // The ridge is a wall between the shortcut's ends: walking is no way across there.
    for (let z = (shortcut?.start.z ?? 0) + 1; z < (shortcut?.end.z ?? 0); z++)
      expect(content.map.isWalkable(shortcut?.start.x ?? 0, z)).toBe(false);
  });

  it('a new character runs the course from the spawn, then takes the shortcut at level 10', () => {
    const s = new Scenario({ content, seed: 7 });
    populateWorld(s.world);
    const id = s.addPlayer({ name: 'Runner' });
    // The course lies west of the spawn, just out of its view: walk toward it.
    const first = course[0];
    s.push({
      type: 'move',
      characterId: id,
      x: (first?.start.x ?? 0) + 12,
      z: first?.start.z ?? 0,
      run: true,
    });
    s.step(20);
    const sideOf = (obstacleId: string) => {
      for (const [eid, side] of s.world.get(AGILITY).sides)
        if (side.obstacleId === obstacleId && !side.reverse) return s.world.wireIds[eid] as string;
      throw new Error(`no ${obstacleId}`);
    };
    /** Cross until it succeeds (a fall leaves the player at the start); the ticks it took. */
    const cross = (obstacleId: string) => {
      for (let attempt = 0; attempt < 20; attempt++) {
        const ends = s.eventsOf(id, 'agilityEnd').length;
        s.push({ type: 'action', characterId: id, action: 'cross', targetId: sideOf(obstacleId) });
        for (let t = 0; t < 200 && s.eventsOf(id, 'agilityEnd').length === ends; t++) s.step();
        const end = s.lastEvent(id, 'agilityEnd')?.data;
        expect(end?.obstacleId).toBe(obstacleId);
        if (end?.success) return;
      }
      throw new Error(`never crossed ${obstacleId}`);
    };
    for (const o of course) {
      cross(o.id);
      expect(s.position(id)).toEqual(o.end);
    }
    const gained = course.reduce((n, o) => n + Math.round(o.xp), 0);
    expect(s.player(id).state.skills.agility.xp).toBe(gained);

    // Walk up to the quarry's ridge. The shortcut needs level 10: refused, then crossed once the level is there.
    const below = { x: shortcut?.start.x ?? 0, z: (shortcut?.start.z ?? 0) - 2 };
    s.push({ type: 'move', characterId: id, ...below, run: true });
    for (let t = 0; t < 200 && (s.position(id).x !== below.x || s.position(id).z !== below.z); t++) s.step();
    expect(s.position(id)).toEqual(below);
    s.push({ type: 'action', characterId: id, action: 'cross', targetId: sideOf('stonegap_ridge_scramble') });
    for (let t = 0; t < 300 && !s.lastEvent(id, 'error'); t++) s.step();
    expect(s.lastEvent(id, 'error')?.data.code).toBe('LEVEL_TOO_LOW');
    setSkillXp(s.world, s.player(id), 'agility', xpForLevel(10));
    cross('stonegap_ridge_scramble');
    expect(s.position(id)).toEqual(shortcut?.end);
  });
});
