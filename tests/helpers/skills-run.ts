import { expect } from 'vitest';
import type { ItemStack } from '../../ecs/core/character-state.ts';
import type { SimContent } from '../../ecs/core/content.ts';
import { populateWorld } from '../../ecs/core/populate.ts';
import { SKILLS, xpForLevel } from '../../ecs/core/skills.ts';
import { TileMap } from '../../ecs/core/tile-map.ts';
import { RESOURCES } from '../../ecs/features/resources/index.ts';
import { STATIONS } from '../../ecs/features/stations/index.ts';
import { Scenario } from '../scenario/harness.ts';

/**
 * Every gathering node and every recipe of a content set through the systems once, on an open field
 * (the content's own map is not what is tested): nodes on a row 4 tiles apart, one station of each
 * type on the row below, a player at level 99 in every skill for each. Returns the content gaps found
 * (items a recipe names that the items files lack; nodes that gave nothing in 200 ticks) as warnings.
 */
export function runEverySkill(base: SimContent): string[] {
  const nodes = [...(base.gatheringNodes ?? new Map()).values()];
  const recipes = base.recipes ?? [];
  const stationTypes = [...new Set(recipes.flatMap((r) => r.stations))].filter((t) => t !== 'fire');
  const content: SimContent = {
    ...base,
    map: new TileMap(0, 0, 400, 400),
    spawn: { x: 200, z: 200 },
    npcSpawns: [],
    resourceSpawns: nodes.map((n, i) => ({ resourceId: n.id, kind: n.skill, x: 20 + 4 * i, z: 20 })),
    stationSpawns: stationTypes.map((type, i) => ({ type, x: 20 + 4 * i, z: 60 })),
  };
  const s = new Scenario({ content, seed: 3 });
  populateWorld(s.world);
  const master = (id: string) => {
    for (const k of SKILLS) s.player(id).state.skills[k] = { level: 99, xp: xpForLevel(99) };
  };
  const warnings: string[] = [];

  for (const [i, n] of nodes.entries()) {
    const tools = (base.tools ?? []).filter((t) => t.skill === n.skill).map((t) => t.itemId);
    const inventory: ItemStack[] = tools.map((itemId) => ({ itemId, quantity: 1 }));
    if (!tools.includes(n.toolRequired) && base.items.has(n.toolRequired))
      inventory.push({ itemId: n.toolRequired, quantity: 1 });
    if (n.secondaryRequired) inventory.push({ itemId: n.secondaryRequired, quantity: 100 });
    const id = s.addPlayer({ name: `G${i}`, x: 19 + 4 * i, z: 20, inventory });
    master(id);
    const eid = [...s.world.get(RESOURCES).byEid.values()].find((r) => r.resourceId === n.id)?.eid as number;
    s.push({ type: 'action', characterId: id, action: 'gather', targetId: s.world.wireIds[eid] as string });
    s.step();
    const errors = s.eventsOf(id, 'error').map((e) => `${n.id}: ${e.data.code} ${e.data.message}`);
    expect(errors).toEqual([]);
    expect(s.lastEvent(id, 'gatheringStart')?.data).toEqual({ resourceId: n.id, skill: n.skill });
    for (let t = 0; t < 200 && s.eventsOf(id, 'skillXp').length === 0; t++) s.step();
    if (s.eventsOf(id, 'skillXp').length === 0) warnings.push(`${n.id}: no xp in 200 ticks`);
    s.push({ type: 'leave', characterId: id, reason: 'logout' });
    s.step();
  }

  const stationAt = (type: string) => {
    for (const st of s.world.get(STATIONS).byEid.values()) if (st.stationType === type) return st.eid;
    throw new Error(`no ${type} placed`);
  };
  for (const [i, r] of recipes.entries()) {
    const inventory: ItemStack[] = [
      ...r.inputs.map((x) => ({ ...x })),
      ...r.tools.map((itemId) => ({ itemId, quantity: 1 })),
      ...r.consumables.map((c) => ({ itemId: c.itemId, quantity: 1 })),
      ...r.anyOf.slice(0, 1).map((itemId) => ({ itemId, quantity: 1 })),
    ];
    const missing = inventory.filter((x) => !base.items.has(x.itemId)).map((x) => x.itemId);
    if (missing.length > 0) warnings.push(`${r.kind} ${r.id}: unknown items ${missing.join(', ')}`);
    // Cooking takes a fire or a range: the placed range is used. No station: a free tile each.
    const type = r.stations.find((t) => t !== 'fire');
    let pos = { x: 300 + (i % 40) * 2, z: 300 + Math.floor(i / 40) * 2 };
    if (type !== undefined) {
      const eid = stationAt(type);
      pos = { x: s.world.c.Position.x[eid] as number, z: (s.world.c.Position.z[eid] as number) - 1 };
    }
    const id = s.addPlayer({ name: `M${i}`, ...pos, inventory, coins: r.coins });
    master(id);
    s.push({ type: 'skillMake', characterId: id, recipeId: r.id, quantity: 1 });
    s.step(r.ticks + 1);
    const errors = s.eventsOf(id, 'error').map((e) => `${r.kind} ${r.id}: ${e.data.code} ${e.data.message}`);
    expect(errors).toEqual([]);
    expect(s.lastEvent(id, 'processingStop')?.data, `${r.kind} ${r.id}`).toEqual({
      recipeId: r.id,
      made: 1,
      reason: 'done',
    });
    for (const x of r.inputs) {
      if (r.outputs.some((o) => o.itemId === x.itemId)) continue;
      const left = s.player(id).state.inventory.filter((st) => st?.itemId === x.itemId).length;
      expect(left, `${r.id}: ${x.itemId} consumed`).toBe(0);
    }
    s.push({ type: 'leave', characterId: id, reason: 'logout' });
    s.step();
  }
  return warnings;
}
