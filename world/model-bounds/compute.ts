import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { NodeIO } from '@gltf-transform/core';
import type { ModelBoundsFile } from '../schemas/world-objects.ts';

/**
 * The model-bounds build step (spec "Model bounds manifest"): each .glb's mesh POSITION min/max, taken
 * through every node's world matrix (so node scale, rotation and translation count), merged per model.
 */

type Vec3 = { x: number; y: number; z: number };
export type ModelBoundsEntry = ModelBoundsFile['models'][number];

export interface StationScale {
  model?: string | undefined;
  modelScale: number;
}

export interface ComputeOptions {
  modelsDir: string;
  /** stations.json entries: a model used by a station has its footprint scaled by the station's modelScale. */
  stations?: readonly StationScale[];
  tileSize?: number;
  onProgress?: (done: number, total: number, file: string) => void;
}

export interface ComputeResult {
  file: ModelBoundsFile;
  /** Files that could not be read, with why; they are left out of `file.models`. */
  failures: { file: string; error: string }[];
  /** False when the models folder does not exist. */
  foundModelsDir: boolean;
}

export async function computeModelBounds(opts: ComputeOptions): Promise<ComputeResult> {
  const tileSize = opts.tileSize ?? 1;
  const files = await findGlb(opts.modelsDir);
  const models: ModelBoundsEntry[] = [];
  const failures: ComputeResult['failures'] = [];
  const io = new NodeIO();
  const scaleByAsset = new Map(
    (opts.stations ?? []).flatMap((s) => (s.model ? [[s.model, s.modelScale]] : [])),
  );
  let done = 0;
  for (const rel of files ?? []) {
    try {
      const bounds = await boundsOf(io, path.join(opts.modelsDir, rel));
      if (!bounds) throw new Error('no mesh with POSITION data');
      const assetPath = `asset://models/${rel}`;
      const dimensions = {
        x: bounds.max.x - bounds.min.x,
        y: bounds.max.y - bounds.min.y,
        z: bounds.max.z - bounds.min.z,
      };
      const scale = scaleByAsset.get(assetPath) ?? 1;
      models.push({
        id: modelId(rel),
        assetPath,
        bounds,
        dimensions,
        footprint: {
          width: Math.max(1, Math.round((dimensions.x * scale) / tileSize)),
          depth: Math.max(1, Math.round((dimensions.z * scale) / tileSize)),
        },
      });
    } catch (err) {
      failures.push({ file: rel, error: (err as Error).message });
    }
    opts.onProgress?.(++done, files?.length ?? 0, rel);
  }
  return {
    file: { generatedAt: new Date().toISOString(), tileSize, models },
    failures,
    foundModelsDir: files !== undefined,
  };
}

/** `stations/furnace/furnace.glb` → `stations/furnace` (a file named after its folder); else the path sans .glb. */
export function modelId(rel: string): string {
  const noExt = rel.replace(/\.glb$/i, '');
  const parts = noExt.split('/');
  const last = parts.at(-1);
  return parts.length > 1 && parts.at(-2) === last ? parts.slice(0, -1).join('/') : noExt;
}

/** .glb files under `dir`, relative with `/` separators, sorted; undefined when the folder is absent. */
async function findGlb(dir: string): Promise<string[] | undefined> {
  let entries: string[];
  try {
    entries = await readdir(dir, { recursive: true });
  } catch {
    return undefined;
  }
  return entries
    .map((e) => e.split(path.sep).join('/'))
    .filter((e) => e.toLowerCase().endsWith('.glb'))
    .sort();
}

async function boundsOf(io: NodeIO, file: string): Promise<{ min: Vec3; max: Vec3 } | undefined> {
  const doc = await io.read(file);
  const min = [Infinity, Infinity, Infinity];
  const max = [-Infinity, -Infinity, -Infinity];
  for (const node of doc.getRoot().listNodes()) {
    const mesh = node.getMesh();
    if (!mesh) continue;
    const m = node.getWorldMatrix();
    for (const prim of mesh.listPrimitives()) {
      const pos = prim.getAttribute('POSITION');
      if (!pos || pos.getCount() === 0) continue;
      const lo = pos.getMin([0, 0, 0]);
      const hi = pos.getMax([0, 0, 0]);
      // The 8 corners of the local box through the world matrix (column-major) bound the world box.
      for (let c = 0; c < 8; c++) {
        const x = c & 1 ? (hi[0] as number) : (lo[0] as number);
        const y = c & 2 ? (hi[1] as number) : (lo[1] as number);
        const z = c & 4 ? (hi[2] as number) : (lo[2] as number);
        for (let axis = 0; axis < 3; axis++) {
          const v = m[axis]! * x + m[4 + axis]! * y + m[8 + axis]! * z + m[12 + axis]!;
          if (v < min[axis]!) min[axis] = v;
          if (v > max[axis]!) max[axis] = v;
        }
      }
    }
  }
  if (min[0] === Infinity) return undefined;
  return {
    min: { x: min[0]!, y: min[1]!, z: min[2]! },
    max: { x: max[0]!, y: max[1]!, z: max[2]! },
  };
}
