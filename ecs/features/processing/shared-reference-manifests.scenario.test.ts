import { describe, expect, it } from 'vitest';
import type { ItemStack } from '../../core/character-state.ts';
import type { SimContent } from '../../core/content.ts';
import { populateWorld } from '../../core/populate.ts';
import { SKILLS, xpForLevel } from '../../core/skills.ts';
import { TileMap } from '../../core/tile-map.ts';
import { loadContent } from '../../../world/loader.ts';
import { toSimContent } from '../../../world/sim-content.ts';
import { referenceAvailable, referenceManifests } from '../../../tests/fixtures/content/paths.ts';
import { Scenario } from '../../../tests/scenario/harness.ts';
import { RESOURCES } from '../resources/index.ts';
import { STATIONS } from '../stations/index.ts';

/**
 * Reads ../shared/content/hyperscape-manifests (the reference content, loaded unchanged): every gathering
 * node and every recipe of every kind goes through the systems once. The content is placed on an open
 * test field (the reference world's own map is not what is tested here). Content gaps (a recipe naming an
 * item the items files lack) are warnings, as the loader reports them.
 */
describe.runIf(referenceAvailable())('reads ../shared/content/hyperscape-manifests: skills', async () => {
  const registry = await loadContent(referenceManifests);
  const base = toSimContent(registry);
  const nodes = [...(base.gatheringNodes ?? new Map()).values()];
  const recipes = base.recipes ?? [];
  const stationTypes = [...new Set(recipes.flatMap((r) => r.stations))];

  function field(): { s: Scenario; content: SimContent } {
    const content: SimContent = {
      ...base,
      map: new TileMap(0, 0, 400, 400),
      spawn: { x: 200, z: 200 },
      npcSpawns: [],
      // Nodes on a row 4 tiles apart, stations on the row below.
      resourceSpawns: nodes.map((n, i) => ({ resourceId: n.id, kind: n.skill, x: 20 + 4 * i, z: 20 })),
      stationSpawns: stationTypes
        .filter((t) => t !== 'fire')
        .map((type, i) => ({ type, x: 20 + 4 * i, z: 60 })),
    };
    const s = new Scenario({ content, seed: 3 });
    populateWorld(s.world);
    return { s, content };
  }

  function master(s: Scenario, id: string): void {
    for (const k of SKILLS) s.player(id).state.skills[k] = { level: 99, xp: xpForLevel(99) };
  }

  it('loads every recipe kind of the reference set', () => {
    expect(new Set(recipes.map((r) => r.kind))).toEqual(
      new Set(['cooking', 'firemaking', 'smelting', 'smithing', 'crafting', 'fletching', 'tanning', 'runecrafting']),
    );
    expect(nodes.map((n) => n.skill).sort()).toContain('fishing');
  });

  it('every gathering node: a master with its best tool starts gathering and gets a yield', () => {
    const { s } = field();
    const warnings: string[] = [];
    for (const [i, n] of nodes.entries()) {
      const tools = (base.tools ?? []).filter((t) => t.skill === n.skill).map((t) => t.itemId);
      const inventory: ItemStack[] = tools.map((itemId) => ({ itemId, quantity: 1 }));
      if (!tools.includes(n.toolRequired) && base.items.has(n.toolRequired))
        inventory.push({ itemId: n.toolRequired, quantity: 1 });
      if (n.secondaryRequired) inventory.push({ itemId: n.secondaryRequired, quantity: 100 });
      const id = s.addPlayer({ name: `G${i}`, x: 19 + 4 * i, z: 20, inventory });
      master(s, id);
      const eid = [...s.world.get(RESOURCES).byEid.values()].find((r) => r.resourceId === n.id)?.eid as number;
      s.push({ type: 'action', characterId: id, action: 'gather', targetId: s.world.wireIds[eid] as string });
      s.step();
      const errors = s.eventsOf(id, 'error').map((e) => `${n.id}: ${e.data.code} ${e.data.message}`);
      expect(errors).toEqual([]);
      expect(s.lastEvent(id, 'gatheringStart')?.data).toEqual({ resourceId: n.id, skill: n.skill });
      for (let t = 0; t < 200 && s.eventsOf(id, 'skillXp').length === 0; t++) s.step();
      if (s.eventsOf(id, 'skillXp').length === 0) warnings.push(`${n.id}: no xp in 200 ticks`);
      s.push({ type: 'moveCancel', characterId: id });
      s.push({ type: 'leave', characterId: id, reason: 'logout' });
      s.step();
    }
    if (warnings.length > 0) console.warn(`reference gathering gaps:\n${warnings.join('\n')}`);
    expect(warnings.length).toBeLessThan(nodes.length);
  });

  it('every recipe: a master holding its inputs and tools at its station makes one', () => {
    const { s } = field();
    const stationOf = (type: string) => {
      for (const st of s.world.get(STATIONS).byEid.values())
        if (st.stationType === type) return st.eid;
      return undefined;
    };
    const gaps: string[] = [];
    for (const [i, r] of recipes.entries()) {
      const inventory: ItemStack[] = [
        ...r.inputs.map((x) => ({ ...x })),
        ...r.tools.map((itemId) => ({ itemId, quantity: 1 })),
        ...r.consumables.map((c) => ({ itemId: c.itemId, quantity: 1 })),
        ...r.anyOf.slice(0, 1).map((itemId) => ({ itemId, quantity: 1 })),
      ];
      const missing = inventory.filter((x) => !base.items.has(x.itemId)).map((x) => x.itemId);
      if (missing.length > 0) gaps.push(`${r.kind} ${r.id}: unknown items ${missing.join(', ')}`);
      // Cooking needs a fire or a range: the range (placed) is used.
      const type = r.stations.find((t) => t !== 'fire');
      const at = type === undefined ? { x: 300, z: 300 + (i % 50) * 2 } : undefined;
      let pos = at;
      if (type !== undefined) {
        const eid = stationOf(type) as number;
        pos = { x: s.world.c.Position.x[eid] as number, z: (s.world.c.Position.z[eid] as number) - 1 };
      }
      const id = s.addPlayer({ name: `M${i}`, ...(pos ?? { x: 300, z: 300 }), inventory, coins: r.coins });
      master(s, id);
      s.push({ type: 'skillMake', characterId: id, recipeId: r.id, quantity: 1 });
      s.step(r.ticks + 1);
      const errors = s.eventsOf(id, 'error').map((e) => `${r.kind} ${r.id}: ${e.data.code} ${e.data.message}`);
      expect(errors).toEqual([]);
      expect(s.lastEvent(id, 'processingStop')?.data).toEqual({ recipeId: r.id, made: 1, reason: 'done' });
      for (const x of r.inputs) {
        const left = s.player(id).state.inventory.filter((st) => st?.itemId === x.itemId).length;
        // The inputs were consumed (unless the output is the same item).
        if (!r.outputs.some((o) => o.itemId === x.itemId)) expect(left, `${r.id} ${x.itemId}`).toBe(0);
      }
      s.push({ type: 'leave', characterId: id, reason: 'logout' });
      s.step();
    }
    if (gaps.length > 0) console.warn(`reference recipe content gaps:\n${gaps.join('\n')}`);
  });
});
