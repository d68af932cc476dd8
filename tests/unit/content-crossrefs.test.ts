import { describe, expect, it } from 'vitest';
import { loadContent } from '../../world/loader.ts';
import { editJson } from '../fixtures/content/paths.ts';
import { problemsOf, useTempManifests } from '../fixtures/content/temp.ts';

/** Each kind of broken cross-reference stops loading with a message naming file, entry and field. */

const temp = useTempManifests();

// biome-ignore lint/suspicious/noExplicitAny: tests edit arbitrary manifest JSON
type Json = any;
type Edit = [file: string, edit: (d: Json) => void, expected: RegExp];
const brokenRefs: Record<string, Edit> = {
  'store item': [
    'stores.json',
    (d: Json) => {
      d[1].items[0].itemId = 'ghost';
    },
    /stores\.json: store "bertrand_smithy" item 0 \(itemId "ghost"\): unknown item/,
  ],
  'area npc': [
    'world-areas.json',
    (d: Json) => {
      d.starterTowns.emberfold.npcs[0].id = 'ghost';
    },
    /world-areas\.json: area "emberfold".*npcs\[0\] \(id "ghost"\): unknown npc/,
  ],
  'area storeId': [
    'world-areas.json',
    (d: Json) => {
      d.starterTowns.emberfold.npcs[1].storeId = 'ghost';
    },
    /storeId "ghost"\): unknown store/,
  ],
  'mob spawn': [
    'world-areas.json',
    (d: Json) => {
      d.level1Areas.ashwood.mobSpawns[0].mobId = 'ghost';
    },
    /area "ashwood".*mobSpawns\[0\] \(mobId "ghost"\): unknown npc/,
  ],
  'fishing spot': [
    'world-areas.json',
    (d: Json) => {
      d.starterTowns.emberfold.fishing.spotTypes[0] = 'ghost';
    },
    /fishing\.spotTypes\[0\] \("ghost"\): unknown fishing spot/,
  ],
  'station type': [
    'world-areas.json',
    (d: Json) => {
      d.starterTowns.emberfold.stations[0].type = 'ghost';
    },
    /stations\[0\] \(type "ghost"\): unknown station type/,
  ],
  'npc drop': [
    'npcs.json',
    (d: Json) => {
      d[2].drops.common[0].itemId = 'ghost';
    },
    /npcs\.json: npc "thornback_boar" drops\.common\[0\] \(itemId "ghost"\)/,
  ],
  'npc quest': [
    'npcs.json',
    (d: Json) => {
      d.find((n: { id: string }) => n.id === 'warden_corvin').services.questIds = ['ghost'];
    },
    /npc "warden_corvin" services\.questIds \("ghost"\): unknown quest/,
  ],
  'biome mob': [
    'biomes.json',
    (d: Json) => {
      d[1].mobs.push('ghost');
    },
    /biomes\.json: biome "woodland" mobs\[2\] \("ghost"\): unknown npc/,
  ],
  'smelting input': [
    'recipes/smelting.json',
    (d: Json) => {
      d.recipes[0].inputs[1].item = 'ghost';
    },
    /recipes\/smelting\.json: recipe 0 \("bronze_bar"\) inputs\[1\] \(itemId "ghost"\)/,
  ],
  'smithing bar': [
    'recipes/smithing.json',
    (d: Json) => {
      d.recipes[0].bar = 'ghost';
    },
    /recipes\/smithing\.json: recipe 0 \("bronze_dagger"\) bar \(itemId "ghost"\)/,
  ],
  'smithing output': [
    'recipes/smithing.json',
    (d: Json) => {
      d.recipes[1].output = 'ghost';
    },
    /recipe 1 output \(itemId "ghost"\)/,
  ],
  'cooking raw': [
    'recipes/cooking.json',
    (d: Json) => {
      d.recipes[0].raw = 'ghost';
    },
    /recipes\/cooking\.json: recipe 0 \("ghost"\) raw \(itemId "ghost"\)/,
  ],
  'cooking cooked': [
    'recipes/cooking.json',
    (d: Json) => {
      d.recipes[0].cooked = 'ghost';
    },
    /cooked \(itemId "ghost"\)/,
  ],
  'firemaking log': [
    'recipes/firemaking.json',
    (d: Json) => {
      d.recipes[0].log = 'ghost';
    },
    /recipes\/firemaking\.json: recipe 0 log \(itemId "ghost"\)/,
  ],
  'gathering tool': [
    'gathering/mining.json',
    (d: Json) => {
      d.rocks[0].toolRequired = 'ghost';
    },
    /gathering\/mining\.json: node "rock_copper" toolRequired \("ghost"\)/,
  ],
  'quest reward': [
    'quests.json',
    (d: Json) => {
      d.boar_trouble.rewards.items[0].itemId = 'ghost';
    },
    /quests\.json: quest "boar_trouble" rewards\.items\[0\] \(itemId "ghost"\)/,
  ],
  'quest npc': [
    'quests.json',
    (d: Json) => {
      d.first_catch.startNpc = 'ghost';
    },
    /quest "first_catch" startNpc \("ghost"\): unknown npc/,
  ],
  'template item': [
    'character-templates.json',
    (d: Json) => {
      d[0].inventory[0].itemId = 'ghost';
    },
    /character-templates\.json: template "wayfarer" inventory\[0\] \(itemId "ghost"\)/,
  ],
  'template slot': [
    'character-templates.json',
    (d: Json) => {
      d[1].equipment.helmet = 'bronze_dagger';
    },
    /template "sellsword" equipment\.helmet.*does not fit/,
  ],
};

describe('broken cross-references', () => {
  it('a template that does not fit the 28 inventory slots', async () => {
    const dir = await temp();
    await editJson(dir, 'character-templates.json', (t) => {
      t[0].inventory.push({ itemId: 'bones', quantity: 25 });
    });
    expect((await problemsOf(dir)).join('\n')).toMatch(
      /template "wayfarer" inventory: needs \d+ slots, more than 28/,
    );
  });

  it('coins that are not a currency', async () => {
    const dir = await temp();
    await editJson(dir, 'items/misc.json', (items) => {
      items.find((i: { id: string }) => i.id === 'coins').type = 'junk';
    });
    expect((await problemsOf(dir)).join('\n')).toMatch(
      /item "coins" \(the coin pouch\): type must be "currency"/,
    );
  });

  it('a placement outside the world.json bounds', async () => {
    const dir = await temp();
    await editJson(dir, 'world.json', (w) => {
      w.bounds.maxX = 640;
    });
    const text = (await problemsOf(dir)).join('\n');
    expect(text).toMatch(
      /world-areas\.json: area "ashwood" mobSpawns\[0\] at \(668, 598\): outside the world\.json bounds/,
    );
  });

  it.each(Object.entries(brokenRefs))('%s', async (_name, [file, edit, expected]) => {
    const dir = await temp();
    await editJson(dir, file, edit);
    const problems = await problemsOf(dir);
    expect(problems.join('\n')).toMatch(expected);
  });

  it.each([
    [
      'tools.json',
      (d: Json) => {
        d[0].itemId = 'ghost';
      },
      /tools\.json: tool 0 \(itemId "ghost"\)/,
    ],
    [
      'gathering/woodcutting.json',
      (d: Json) => {
        d.trees[0].harvestYield[0].itemId = 'ghost';
      },
      /harvestYield\[0\] \(itemId "ghost"\)/,
    ],
    [
      'recipes/cooking.json',
      (d: Json) => {
        d.recipes[0].burnt = 'ghost';
      },
      /burnt \(itemId "ghost"\)/,
    ],
  ] as const)('soft reference in %s is a warning, and loading goes on', async (file, edit, expected) => {
    const dir = await temp();
    await editJson(dir, file, edit);
    const registry = await loadContent(dir);
    expect(registry.warnings.join('\n')).toMatch(expected);
  });
});
