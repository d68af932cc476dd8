import type { SimContent } from '../ecs/core/content.ts';
import type { Config } from '../lib/config.ts';
import { type EnsureManifestsResult, ensureManifests, type FetchLogger } from './fetch.ts';
import { loadContent } from './loader.ts';
import type { ContentRegistry } from './registry.ts';
import { toSimContent } from './sim-content.ts';

export interface PreparedContent {
  registry: ContentRegistry;
  sim: SimContent;
  fetch: EnsureManifestsResult;
}

/**
 * Start-up content in one call for src/main.ts: fetch/cache the manifests, load them (throws ContentError
 * on any problem, which must stop start-up), log the tolerated warnings, and build the simulation's view.
 */
export async function prepareContent(opts: {
  config: Pick<Config, 'isProduction' | 'manifestsDir' | 'skipManifests' | 'urls'>;
  logger: FetchLogger;
  fetchImpl?: typeof fetch;
}): Promise<PreparedContent> {
  const fetched = await ensureManifests(opts);
  const registry = await loadContent(opts.config.manifestsDir);
  for (const w of registry.warnings) opts.logger.warn(`content: ${w}`);
  opts.logger.info(
    `content: ${registry.items.size} items, ${registry.npcs.size} npcs, ${registry.parts.stores?.size ?? 0} stores, ${registry.areas.size} areas from ${registry.files.length} files`,
  );
  return { registry, sim: toSimContent(registry), fetch: fetched };
}
