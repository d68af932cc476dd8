import { readFile } from 'node:fs/promises';
import path from 'node:path';
import cliProgress from 'cli-progress';
import { stations } from '../../ecs/features/stations/index.ts';
import { atomicWrite } from '../fetch.ts';
import { computeModelBounds, type StationScale } from './compute.ts';

/**
 * `npm run model-bounds` (a pre-step of dev and build): scan ${WORLD}/assets/models/**\/*.glb and write
 * ${WORLD}/assets/manifests/model-bounds.json. Only WORLD is read: a build step must not need runtime
 * secrets, which a full loadConfig would demand in production.
 */
async function main(): Promise<number> {
  const worldDir = path.resolve(process.env['WORLD']?.trim() || 'world');
  const modelsDir = path.join(worldDir, 'assets', 'models');
  const manifestsDir = path.join(worldDir, 'assets', 'manifests');
  const stations = await readStations(manifestsDir);

  let bar: cliProgress.SingleBar | undefined;
  let lastLogged = 0;
  const result = await computeModelBounds({
    modelsDir,
    stations,
    onProgress: (done, total) => {
      if (process.stdout.isTTY) {
        if (!bar) {
          bar = new cliProgress.SingleBar({ format: 'model-bounds [{bar}] {value}/{total}' });
          bar.start(total, 0);
        }
        bar.update(done);
      } else if (done === total || done - lastLogged >= 100) {
        lastLogged = done;
        console.log(`model-bounds: ${done}/${total} models read`);
      }
    },
  });
  bar?.stop();
  if (!result.foundModelsDir) {
    console.log(
      `model-bounds: no models folder at ${modelsDir}; writing an empty list (run npm run assets:sync to mirror models)`,
    );
  }
  for (const f of result.failures) console.warn(`model-bounds: skipped ${f.file}: ${f.error}`);
  const out = path.join(manifestsDir, 'model-bounds.json');
  await atomicWrite(out, `${JSON.stringify(result.file, null, 2)}\n`);
  console.log(
    `model-bounds: wrote ${result.file.models.length} models to ${out} (${result.failures.length} skipped)`,
  );
  return 0;
}

async function readStations(manifestsDir: string): Promise<StationScale[]> {
  try {
    const schema = stations.content?.files['stations.json'];
    if (!schema) return [];
    const parsed = schema.safeParse(
      JSON.parse(await readFile(path.join(manifestsDir, 'stations.json'), 'utf8')),
    );
    if (parsed.success) return parsed.data.stations;
    console.warn('model-bounds: stations.json is invalid; footprints use scale 1');
  } catch {
    // No stations.json: every footprint uses scale 1.
  }
  return [];
}

main().then(
  (code) => process.exit(code),
  (err: unknown) => {
    console.error(`model-bounds: ${(err as Error).message}`);
    process.exit(1);
  },
);
