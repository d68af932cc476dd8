import path from 'node:path';
import { syncModels } from './sync.ts';

/**
 * `npm run assets:sync` (part of build): mirror the asset host's models into ${WORLD}/assets/models.
 * Skipped when CI=true or SKIP_ASSETS=true (spec); an unreachable host is a warning, never a failed build.
 * Reads only WORLD, PUBLIC_CDN_URL, CI and SKIP_ASSETS: a build must not need the runtime secrets.
 */
const truthy = (v: string | undefined) => ['1', 'true', 'yes', 'on'].includes((v ?? '').trim().toLowerCase());

async function main(): Promise<void> {
  if (truthy(process.env['CI']) || truthy(process.env['SKIP_ASSETS'])) {
    console.log('assets: sync skipped (CI or SKIP_ASSETS is set)');
    return;
  }
  const worldDir = path.resolve(process.env['WORLD']?.trim() || 'world');
  const cdnUrl = process.env['PUBLIC_CDN_URL']?.trim() || 'http://localhost:8080';
  await syncModels({
    cdnUrl,
    modelsDir: path.join(worldDir, 'assets', 'models'),
    logger: { info: console.log, warn: console.warn, error: console.error },
  });
}

main().then(
  () => process.exit(0),
  (err: unknown) => {
    console.error(`assets: ${(err as Error).message}`);
    process.exit(1);
  },
);
