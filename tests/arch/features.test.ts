import { existsSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { AnyFeature } from '../../ecs/core/feature.ts';
import { FEATURES } from '../../ecs/schedule.ts';
import { REPO_ROOT } from '../../lib/repo-root.ts';
import { CONTENT_FACES, faceSchemas } from '../../world/content-faces.ts';
import { CORE_MANIFEST_SCHEMAS, claimManifests, MANIFEST_SCHEMAS } from '../../world/schemas/index.ts';
import { sourceFiles } from './source-files.ts';

/**
 * Completeness: nothing lists a feature outside FEATURES, so "missing from a layer" means a face not
 * attached, or one attached from another folder. These tests read the folders and the feature list.
 */

/** Folder -> the feature whose index.ts re-exports it. */
async function featureByFolder(): Promise<Map<string, AnyFeature>> {
  const out = new Map<string, AnyFeature>();
  const folders = new Set(sourceFiles('ecs/features').map((f) => f.rel.split('/')[2] as string));
  for (const folder of folders) {
    const mod = (await import(path.join(REPO_ROOT, 'ecs/features', folder, 'index.ts'))) as Record<
      string,
      unknown
    >;
    const feature = FEATURES.find((f) => Object.values(mod).includes(f));
    if (feature) out.set(folder, feature);
  }
  return out;
}

describe('features: each face is attached, and attached from its own folder', () => {
  it.each([
    ['wire', 'wire.ts'],
    ['content', 'content.ts'],
    ['persist', 'persist.ts'],
  ] as const)(
    'a folder with a %s face (%s) attaches it to its feature, and nothing else',
    async (key, file) => {
      const bad: string[] = [];
      for (const [folder, feature] of await featureByFolder()) {
        const facePath = path.join(REPO_ROOT, 'ecs/features', folder, file);
        const attached: unknown = feature[key];
        if (!existsSync(facePath)) {
          if (attached !== undefined)
            bad.push(`${folder}: feature ${feature.name} has a ${key} face but no ${file}`);
          continue;
        }
        const mod = (await import(facePath)) as Record<string, unknown>;
        if (attached === undefined) bad.push(`${folder}/${file} is not attached to feature ${feature.name}`);
        else if (!Object.values(mod).includes(attached))
          bad.push(`${folder}: feature ${feature.name}'s ${key} face is not the one ${file} declares`);
      }
      expect(bad).toEqual([]);
    },
  );
});

describe('manifests: every file is claimed once, by the core or by one content face', () => {
  it('the table the loader and the fetcher read is the core files plus every face file', () => {
    const faceFiles = CONTENT_FACES.flatMap(({ face }) => Object.keys(face.files));
    expect(Object.keys(MANIFEST_SCHEMAS).sort()).toEqual(
      [...Object.keys(CORE_MANIFEST_SCHEMAS), ...faceFiles].sort(),
    );
    expect(new Set(faceFiles).size).toBe(faceFiles.length);
  });

  it('a file claimed by the core and a face, or by two faces, stops start-up', () => {
    const [first, second] = CONTENT_FACES;
    if (!first || !second) throw new Error('expected at least two content faces');
    const file = Object.keys(first.face.files)[0] as string;
    const schema = first.face.files[file];
    if (!schema) throw new Error('expected a schema');
    expect(() =>
      claimManifests({ ...CORE_MANIFEST_SCHEMAS, [file]: schema }, faceSchemas(CONTENT_FACES)),
    ).toThrow(`manifest ${file} is claimed by the core and by a content face`);
    const twice = {
      ...second,
      face: { ...second.face, files: { ...second.face.files, [file]: schema } },
    };
    expect(() => faceSchemas([first, twice])).toThrow(
      `manifest ${file} is claimed twice (${second.feature})`,
    );
  });
});
