import type { z } from 'zod';
import type { ContentParts } from '../ecs/core/content.ts';
import type {
  AnyContentFace,
  ContentContext,
  ContentFace,
  IdSpace,
  TileRect,
} from '../ecs/core/faces/content.ts';
import { FEATURES } from '../ecs/schedule.ts';
import { readManifest } from './read-manifest.ts';

/**
 * The features' content faces, from FEATURES: the manifest files each reads, the ids they define, the
 * tiles they block, their checks and the SimContent parts they build. The loader (loader.ts) runs them
 * around the core manifests; nothing here lists a feature by hand.
 */

export interface NamedFace {
  readonly feature: string;
  readonly face: AnyContentFace;
}

export const CONTENT_FACES: readonly NamedFace[] = FEATURES.flatMap((f) =>
  f.content ? [{ feature: f.name, face: f.content as AnyContentFace }] : [],
);

/** Every face's files with their schemas; a file two faces claim is a mistake caught at start-up. */
export function faceSchemas(faces: readonly NamedFace[]): Readonly<Record<string, z.ZodType>> {
  const out: Record<string, z.ZodType> = {};
  for (const { feature, face } of faces) {
    for (const [file, schema] of Object.entries(face.files)) {
      if (Object.hasOwn(out, file)) throw new Error(`manifest ${file} is claimed twice (${feature})`);
      out[file] = schema;
    }
  }
  return out;
}

export const FACE_SCHEMAS = faceSchemas(CONTENT_FACES);

type FaceOf<F> = F extends { readonly content?: infer N } ? NonNullable<N> : never;
type PartsOf<N> = N extends ContentFace<infer _F, infer K> ? K : never;
// Every part of SimContent a feature declares is built by a content face (a compile error names the others).
type Unbuilt = Exclude<keyof ContentParts, PartsOf<FaceOf<(typeof FEATURES)[number]>>>;
const allBuilt: [Unbuilt] extends [never] ? true : Unbuilt = true;
void allBuilt;

export const FACE_REQUIRED: readonly string[] = CONTENT_FACES.flatMap(({ face }) => face.required ?? []);

/** One face's files as read (absent files left out). */
export type FaceData = Record<string, unknown>;

/** Read and validate every face's files; problems and the files read are appended to the lists given. */
export async function readFaces(
  dir: string,
  problems: string[],
  files: string[],
): Promise<Map<NamedFace, FaceData>> {
  const out = new Map<NamedFace, FaceData>();
  for (const named of CONTENT_FACES) {
    const data: FaceData = {};
    for (const [rel, schema] of Object.entries(named.face.files)) {
      const r = await readManifest(dir, rel, schema);
      if (r.ok) {
        data[rel] = r.data;
        files.push(rel);
      } else if (!r.missing) problems.push(...r.problems);
      else if (named.face.required?.includes(rel)) problems.push(`${rel}: required manifest is missing`);
    }
    out.set(named, data);
  }
  return out;
}

/** The ids every face defines, added to `ids` (a space defined by two sources is a mistake). */
export function faceIds(faces: ReadonlyMap<NamedFace, FaceData>, ids: Map<IdSpace, Set<string>>): void {
  for (const [{ feature, face }, data] of faces) {
    const defined = face.defines?.(data) ?? {};
    for (const [space, list] of Object.entries(defined) as [IdSpace, Iterable<string>][]) {
      if (ids.has(space)) throw new Error(`id space ${space} is defined twice (${feature})`);
      ids.set(space, new Set(list));
    }
  }
}

export function faceBlocks(faces: ReadonlyMap<NamedFace, FaceData>, ctx: ContentContext): TileRect[] {
  return [...faces].flatMap(([{ face }, data]) => [...(face.blocks?.(data, ctx) ?? [])]);
}

export function faceChecks(faces: ReadonlyMap<NamedFace, FaceData>, ctx: ContentContext): void {
  for (const [{ face }, data] of faces) face.check?.(data, ctx);
}

/** Every face's SimContent parts, frozen; a part two faces build is a mistake. */
export function faceParts(
  faces: ReadonlyMap<NamedFace, FaceData>,
  ctx: ContentContext,
): Readonly<Partial<ContentParts>> {
  const parts: Record<string, unknown> = {};
  for (const [{ feature, face }, data] of faces) {
    for (const [key, part] of Object.entries(face.build(data, ctx))) {
      if (Object.hasOwn(parts, key)) throw new Error(`content part ${key} is built twice (${feature})`);
      parts[key] = part;
    }
  }
  return Object.freeze(parts) as Readonly<Partial<ContentParts>>;
}
