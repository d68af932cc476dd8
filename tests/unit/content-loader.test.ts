import { readdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadContent } from '../../world/loader.ts';
import {
  defaultManifests,
  editJson,
  referenceAvailable,
  referenceManifests,
} from '../fixtures/content/paths.ts';
import { problemsOf, useTempManifests } from '../fixtures/content/temp.ts';

const temp = useTempManifests();

const readJson = async (file: string) => JSON.parse(await readFile(file, 'utf8'));

describe.runIf(referenceAvailable())('reference manifests (format reference, loaded unchanged)', () => {
  it('loads every item, NPC, store and area', async () => {
    const registry = await loadContent(referenceManifests);
    const itemFiles = (await readdir(path.join(referenceManifests, 'items'))).filter((f) =>
      f.endsWith('.json'),
    );
    const itemIds = (
      await Promise.all(itemFiles.map((f) => readJson(path.join(referenceManifests, 'items', f))))
    )
      .flat()
      .map((i: { id: string }) => i.id);
    expect(registry.items.size).toBe(itemIds.length);
    for (const id of itemIds) expect(registry.items.has(id)).toBe(true);

    const npcs: { id: string }[] = await readJson(path.join(referenceManifests, 'npcs.json'));
    expect([...registry.npcs.keys()].sort()).toEqual(npcs.map((n) => n.id).sort());
    const stores: { id: string }[] = await readJson(path.join(referenceManifests, 'stores.json'));
    expect([...(registry.parts.stores?.keys() ?? [])].sort()).toEqual(stores.map((s) => s.id).sort());
    const areas: Record<string, Record<string, { id: string }>> = await readJson(
      path.join(referenceManifests, 'world-areas.json'),
    );
    const areaIds = Object.values(areas).flatMap((g) => Object.values(g).map((a) => a.id));
    expect([...registry.areas.keys()].sort()).toEqual(areaIds.sort());
    // Every manifest of the folder was read.
    const all = await readdir(referenceManifests, { recursive: true });
    expect(registry.files.length).toBe(all.filter((f) => f.endsWith('.json')).length);
  });

  it('tolerates only the dangling references the reference really has, as warnings', async () => {
    const registry = await loadContent(referenceManifests);
    expect(registry.warnings.length).toBeGreaterThan(0);
    for (const w of registry.warnings) {
      expect(w).toMatch(/^(tools\.json|gathering\/|recipes\/cooking\.json|quests\.json|world-areas\.json)/);
    }
  });
});

describe('default world', () => {
  it('loads with no warnings and a deeply frozen registry', async () => {
    const registry = await loadContent(defaultManifests);
    expect(registry.warnings).toEqual([]);
    expect(registry.items.size).toBeGreaterThanOrEqual(12);
    expect(() => (registry.items as Map<string, unknown>).set('x', {})).toThrow(TypeError);
    expect(Object.isFrozen(registry.items.get('coins'))).toBe(true);
    expect(Object.isFrozen(registry.manifests['recipes/cooking.json'])).toBe(true);
    expect(Object.isFrozen(registry.parts)).toBe(true);
    expect(registry.templates.length).toBeGreaterThan(0);
  });

  it('loads the same from the single items.json layout', async () => {
    const dir = await temp();
    const files = (await readdir(path.join(dir, 'items'))).sort();
    const all = (await Promise.all(files.map((f) => readJson(path.join(dir, 'items', f))))).flat();
    await rm(path.join(dir, 'items'), { recursive: true });
    await writeFile(path.join(dir, 'items.json'), JSON.stringify(all));
    const registry = await loadContent(dir);
    expect(registry.items.size).toBe(all.length);
    expect(registry.files).toContain('items.json');
  });

  it('builds a default template from existing items when character-templates.json is absent', async () => {
    const dir = await temp();
    await rm(path.join(dir, 'character-templates.json'));
    const registry = await loadContent(dir);
    expect(registry.templates).toHaveLength(1);
    const kit = registry.templates[0]?.inventory.map((s) => s.itemId) ?? [];
    expect(kit.length).toBeGreaterThan(0);
    for (const id of kit) expect(registry.items.has(id)).toBe(true);
  });
});

describe('failure paths', () => {
  it.each(['npcs.json', 'world-areas.json', 'biomes.json', 'stores.json'])(
    'a missing %s stops loading',
    async (file) => {
      const dir = await temp();
      await rm(path.join(dir, file));
      const problems = await problemsOf(dir);
      expect(problems).toContain(`${file}: required manifest is missing`);
    },
  );

  it('missing items (no items.json, no items/) stops loading', async () => {
    const dir = await temp();
    await rm(path.join(dir, 'items'), { recursive: true });
    expect((await problemsOf(dir)).join('\n')).toMatch(/^items\.json: required manifest is missing/m);
  });

  it('a missing directory is reported', async () => {
    expect((await problemsOf('/nonexistent/manifests')).join('\n')).toMatch(/does not exist/);
  });

  it('malformed JSON names the file and the position', async () => {
    const dir = await temp();
    await writeFile(path.join(dir, 'stores.json'), '[\n  {"id": "x",\n  oops\n]');
    const problems = await problemsOf(dir);
    expect(problems.join('\n')).toMatch(/stores\.json: malformed JSON at line 3 column \d+/);
  });

  it('an invalid field names file, entry and field', async () => {
    const dir = await temp();
    await editJson(dir, 'npcs.json', (npcs) => {
      npcs[0].stats.level = 'high';
    });
    const [problem] = await problemsOf(dir);
    expect(problem).toMatch(/^npcs\.json: entry "marsh_rat" \(\[0\]\), field stats\.level: /);
  });

  it('an unknown skill in item requirements is rejected; `defence` is accepted', async () => {
    const dir = await temp();
    await editJson(dir, 'items/weapons.json', (items) => {
      items[0].requirements = { skills: { sorcery: 5, defence: 2 } };
    });
    const problems = (await problemsOf(dir)).filter((p) => p.startsWith('items/'));
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatch(
      /items\/weapons\.json: entry "bronze_dagger".*requirements\.skills\.sorcery.*unknown skill/,
    );
  });

  it('collects every problem, not just the first', async () => {
    const dir = await temp();
    await editJson(dir, 'stores.json', (s) => {
      s[0].items[2].itemId = 'nope_a';
    });
    await editJson(dir, 'biomes.json', (b) => {
      b[0].mobs.push('nope_b');
    });
    await editJson(dir, 'prayers.json', (p) => {
      p.prayers[0].level = 0;
    });
    const text = (await problemsOf(dir)).join('\n');
    expect(text).toContain('stores.json: store "emberfold_general" item 2 (itemId "nope_a"): unknown item');
    expect(text).toContain('nope_b');
    expect(text).toMatch(/prayers\.json: entry "steady_heart".*level/);
  });

  it('unknown extra fields are tolerated', async () => {
    const dir = await temp();
    await editJson(dir, 'npcs.json', (npcs) => {
      npcs[0].flavourText = 'squeak';
    });
    await expect(loadContent(dir)).resolves.toBeDefined();
  });

  it('a duplicate item id across item files is rejected', async () => {
    const dir = await temp();
    await editJson(dir, 'items/misc.json', (items) => {
      items.push({ id: 'bronze_dagger', name: 'Copy', type: 'junk', value: 0 });
    });
    expect((await problemsOf(dir)).join('\n')).toMatch(/item "bronze_dagger": duplicate id/);
  });
});
