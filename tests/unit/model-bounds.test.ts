import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { Document, NodeIO } from '@gltf-transform/core';
import { afterEach, describe, expect, it } from 'vitest';
import { computeModelBounds, modelId } from '../../world/model-bounds/compute.ts';
import { modelBoundsFileSchema } from '../../world/schemas/world-objects.ts';
import { repoRoot } from '../fixtures/content/paths.ts';

const run = promisify(execFile);

/** A .glb holding one box mesh (min..max) on a node with the given scale and translation. */
async function writeGlb(
  file: string,
  box: { min: [number, number, number]; max: [number, number, number] },
  node: {
    scale?: [number, number, number];
    translation?: [number, number, number];
    parentScale?: number;
  } = {},
) {
  const doc = new Document();
  const buffer = doc.createBuffer();
  const [a, b] = [box.min, box.max];
  const corners: number[] = [];
  for (let c = 0; c < 8; c++) corners.push(c & 1 ? b[0] : a[0], c & 2 ? b[1] : a[1], c & 4 ? b[2] : a[2]);
  const position = doc.createAccessor().setType('VEC3').setArray(new Float32Array(corners)).setBuffer(buffer);
  const mesh = doc.createMesh().addPrimitive(doc.createPrimitive().setAttribute('POSITION', position));
  const child = doc
    .createNode('box')
    .setMesh(mesh)
    .setScale(node.scale ?? [1, 1, 1])
    .setTranslation(node.translation ?? [0, 0, 0]);
  const root = doc
    .createNode('root')
    .setScale([node.parentScale ?? 1, node.parentScale ?? 1, node.parentScale ?? 1]);
  root.addChild(child);
  doc.createScene().addChild(root);
  await mkdir(path.dirname(file), { recursive: true });
  await writeFile(file, await new NodeIO().writeBinary(doc));
}

const temps: string[] = [];
afterEach(async () => {
  await Promise.all(temps.splice(0).map((d) => rm(d, { recursive: true, force: true })));
});
async function tempWorld() {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'bounds-'));
  temps.push(dir);
  return dir;
}

describe('computeModelBounds', () => {
  it('reads POSITION min/max through node scale (including a parent) and translation', async () => {
    const dir = await tempWorld();
    await writeGlb(
      path.join(dir, 'props/crate.glb'),
      { min: [-0.5, 0, -0.5], max: [0.5, 1, 0.5] },
      {
        scale: [2, 1, 3],
        translation: [1, 0, 0],
        parentScale: 2,
      },
    );
    const { file, failures } = await computeModelBounds({ modelsDir: dir });
    expect(failures).toEqual([]);
    const [m] = file.models;
    // Child: x in [-1, 1] + 1 = [0, 2], then the parent doubles: [0, 4]; z: [-1.5, 1.5] * 2 = [-3, 3].
    expect(m?.bounds.min).toEqual({ x: 0, y: 0, z: -3 });
    expect(m?.bounds.max).toEqual({ x: 4, y: 2, z: 3 });
    expect(m?.dimensions).toEqual({ x: 4, y: 2, z: 6 });
    expect(m?.footprint).toEqual({ width: 4, depth: 6 });
    expect(m?.assetPath).toBe('asset://models/props/crate.glb');
    expect(modelBoundsFileSchema.safeParse(file).success).toBe(true);
  });

  it("scales a station model's footprint by the station's modelScale, rounded, at least 1", async () => {
    const dir = await tempWorld();
    await writeGlb(path.join(dir, 'stations/furnace/furnace.glb'), {
      min: [-0.75, 0, -0.2],
      max: [0.75, 2, 0.2],
    });
    await writeGlb(path.join(dir, 'stations/anvil/anvil.glb'), {
      min: [-0.75, 0, -0.2],
      max: [0.75, 1, 0.2],
    });
    const { file } = await computeModelBounds({
      modelsDir: dir,
      stations: [{ model: 'asset://models/stations/furnace/furnace.glb', modelScale: 1.5 }],
    });
    const byId = new Map(file.models.map((m) => [m.id, m]));
    expect(byId.get('stations/furnace')?.footprint).toEqual({ width: 2, depth: 1 }); // 1.5*1.5=2.25, 0.4*1.5=0.6
    expect(byId.get('stations/anvil')?.footprint).toEqual({ width: 2, depth: 1 }); // 1.5 rounds to 2, 0.4 to 1 (min)
  });

  it('reports unreadable files and still reads the rest', async () => {
    const dir = await tempWorld();
    await writeGlb(path.join(dir, 'good.glb'), { min: [0, 0, 0], max: [1, 1, 1] });
    await writeFile(path.join(dir, 'broken.glb'), 'not a glb at all');
    const progress: number[] = [];
    const r = await computeModelBounds({ modelsDir: dir, onProgress: (done) => progress.push(done) });
    expect(r.file.models.map((m) => m.id)).toEqual(['good']);
    expect(r.failures.map((f) => f.file)).toEqual(['broken.glb']);
    expect(progress).toEqual([1, 2]);
  });

  it('without a models folder gives an empty list', async () => {
    const r = await computeModelBounds({ modelsDir: path.join(await tempWorld(), 'nope') });
    expect(r.foundModelsDir).toBe(false);
    expect(r.file.models).toEqual([]);
  });

  it('names models by folder when the file is named after it', () => {
    expect(modelId('stations/furnace/furnace.glb')).toBe('stations/furnace');
    expect(modelId('trees/pine/pine_01.glb')).toBe('trees/pine/pine_01');
  });
});

describe('npm run model-bounds (the CLI)', () => {
  it('writes model-bounds.json in the spec shape using stations.json, exit 0', async () => {
    const world = await tempWorld();
    const manifests = path.join(world, 'assets', 'manifests');
    await mkdir(manifests, { recursive: true });
    await writeFile(
      path.join(manifests, 'stations.json'),
      JSON.stringify({
        stations: [{ type: 'anvil', name: 'Anvil', model: 'asset://models/anvil.glb', modelScale: 3 }],
      }),
    );
    await writeGlb(path.join(world, 'assets', 'models', 'anvil.glb'), { min: [0, 0, 0], max: [1, 1, 1] });
    await writeFile(path.join(world, 'assets', 'models', 'bad.glb'), 'garbage');
    const tsx = path.join(repoRoot, 'node_modules', '.bin', 'tsx');
    const { stdout, stderr } = await run(tsx, [path.join(repoRoot, 'world/model-bounds/cli.ts')], {
      env: { ...process.env, WORLD: world },
    });
    expect(stdout).toMatch(/wrote 1 models/);
    expect(stderr).toMatch(/skipped bad\.glb/);
    const out = modelBoundsFileSchema.parse(
      JSON.parse(await readFile(path.join(manifests, 'model-bounds.json'), 'utf8')),
    );
    expect(out.models[0]?.footprint).toEqual({ width: 3, depth: 3 });
  });

  it('with no models folder says so and writes an empty list', async () => {
    const world = await tempWorld();
    const tsx = path.join(repoRoot, 'node_modules', '.bin', 'tsx');
    const { stdout } = await run(tsx, [path.join(repoRoot, 'world/model-bounds/cli.ts')], {
      env: { ...process.env, WORLD: world },
    });
    expect(stdout).toMatch(/no models folder/);
    const out = JSON.parse(
      await readFile(path.join(world, 'assets', 'manifests', 'model-bounds.json'), 'utf8'),
    );
    expect(out.models).toEqual([]);
  });
});
