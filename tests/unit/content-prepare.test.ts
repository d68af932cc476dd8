import { rm } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../lib/config.ts';
import { ContentError } from '../../world/content-error.ts';
import { prepareContent } from '../../world/prepare.ts';
import { repoRoot } from '../fixtures/content/paths.ts';
import { useTempManifests } from '../fixtures/content/temp.ts';

const temp = useTempManifests();
const silent = { info: () => {}, warn: () => {}, error: () => {} };

describe('prepareContent (start-up wiring)', () => {
  it('loads the default world with the default configuration and no asset host', async () => {
    const config = loadConfig({}, repoRoot);
    expect(config.manifestsDir).toBe(path.join(repoRoot, 'world', 'assets', 'manifests'));
    // Development with local manifests: no request is made, so no fetch implementation is needed.
    const fetchImpl = (() => {
      throw new Error('no request expected');
    }) as unknown as typeof fetch;
    const { registry, sim, fetch: fetched } = await prepareContent({ config, logger: silent, fetchImpl });
    expect(fetched.source).toBe('cache');
    expect(registry.warnings).toEqual([]);
    expect(sim.map.isWalkable(sim.spawn.x, sim.spawn.z)).toBe(true);
  });

  it('stops with a ContentError when the content is broken', async () => {
    const dir = await temp();
    const config = { ...loadConfig({ SKIP_MANIFESTS: 'true' }, repoRoot), manifestsDir: dir };
    await rm(path.join(dir, 'biomes.json'));
    await expect(prepareContent({ config, logger: silent })).rejects.toBeInstanceOf(ContentError);
  });
});
