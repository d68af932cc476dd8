import { describe, expect, it } from 'vitest';
import { defaultManifests } from '../../../tests/fixtures/content/paths.ts';
import { Scenario } from '../../../tests/scenario/harness.ts';
import { loadContent } from '../../../world/loader.ts';
import { toSimContent } from '../../../world/sim-content.ts';
import { populateWorld } from '../../core/populate.ts';
import { NPCS } from '../npcs/index.ts';
import { pvpAllowedAt } from './attacker.ts';

/** The default world (world/assets/manifests) can be fought in on `npm start`. */
describe('combat content of the default world', async () => {
  const content = toSimContent(await loadContent(defaultManifests));

  it('has six attackable NPC kinds with drop tables, passive and aggressive, one far too strong for a new player', () => {
    const fighters = [...content.npcs.values()].filter((n) => n.attackable && n.combat);
    expect(fighters.length).toBeGreaterThanOrEqual(6);
    expect(fighters.every((n) => n.drops !== undefined)).toBe(true);
    expect(fighters.some((n) => !n.aggressive)).toBe(true);
    expect(fighters.some((n) => n.aggressive)).toBe(true);
    expect(fighters.some((n) => n.level >= 50)).toBe(true);
  });

  it('places attackable NPCs near the starter town, an altar, bones worth prayer xp, a bow with arrows, a staff with spells and runes, and PvP only away from town', () => {
    const { spawn } = content;
    const near = content.npcSpawns.filter(
      (s) =>
        content.npcs.get(s.npcId)?.attackable &&
        Math.max(Math.abs(s.x - spawn.x), Math.abs(s.z - spawn.z)) <= 40,
    );
    expect(near.length).toBeGreaterThan(0);
    expect(content.stationSpawns.some((s) => s.type === 'altar')).toBe(true);
    expect(content.items.get('bones')?.prayerXp).toBeGreaterThan(0);
    expect(content.prayers?.size).toBeGreaterThan(0);
    expect(content.items.get('ash_shortbow')?.weapon?.attackType).toBe('ranged');
    expect(content.items.get('bronze_arrow')).toMatchObject({ stackable: true, equipSlot: 'arrows' });
    expect(content.items.get('ash_staff')?.weapon?.attackType).toBe('magic');
    expect(content.spells?.get('wind_strike')?.runes).toEqual([
      { itemId: 'gust_rune', quantity: 1 },
      { itemId: 'mind_rune', quantity: 1 },
    ]);
    const s = new Scenario({ content });
    expect(pvpAllowedAt(s.world, spawn.x, spawn.z)).toBe(false);
    expect(content.areas?.some((a) => a.pvpEnabled)).toBe(true);
  });

  it('a new player can walk to a town rat and kill it', () => {
    const s = new Scenario({ content });
    populateWorld(s.world);
    const rat = [...s.world.get(NPCS).byEid.values()].find((n) => n.npcId === 'marsh_rat');
    expect(rat).toBeDefined();
    const eid = rat?.eid ?? 0;
    const x = s.world.c.Position.x[eid] as number;
    const z = s.world.c.Position.z[eid] as number;
    const id = s.addPlayer({ name: 'Rookie', x: x - 3, z });
    const wireId = s.world.wireIds[eid] as string;
    s.push({ type: 'action', characterId: id, action: 'attack', targetId: wireId });
    let ticks = 0;
    while (s.world.eidByWireId.get(wireId) === eid && ticks++ < 300) s.step();
    expect(s.lastEvent(id, 'entityDeath')?.data).toMatchObject({ id: wireId, killerId: id });
    expect(s.player(id).state.slices?.npcKills).toEqual({ marsh_rat: 1 });
  });
});
