import type { z } from 'zod';
import { FACE_REQUIRED, FACE_SCHEMAS } from '../content-faces.ts';
import { biomesFileSchema, worldAreasFileSchema } from './areas.ts';
import { npcsFileSchema } from './npcs.ts';
import { lodSettingsFileSchema, musicFileSchema, vegetationFileSchema } from './presentation.ts';
import { skillUnlocksFileSchema } from './progression.ts';
import { characterTemplatesFileSchema, worldFileSchema } from './project.ts';
import { tierRequirementsFileSchema } from './tiers.ts';
import { buildingsFileSchema, duelArenasFileSchema, modelBoundsFileSchema } from './world-objects.ts';

/**
 * The core manifests, relative to the manifests directory, with their schemas: the files many features
 * read (or none: presentation). A file only one feature reads is declared in that feature's content face
 * (world/content-faces.ts). Items are separate (items.json or items/*.json).
 */
export const CORE_MANIFEST_SCHEMAS = {
  'npcs.json': npcsFileSchema,
  'world-areas.json': worldAreasFileSchema,
  'biomes.json': biomesFileSchema,
  'music.json': musicFileSchema,
  'vegetation.json': vegetationFileSchema,
  'buildings.json': buildingsFileSchema,
  'skill-unlocks.json': skillUnlocksFileSchema,
  'tier-requirements.json': tierRequirementsFileSchema,
  'duel-arenas.json': duelArenasFileSchema,
  'lod-settings.json': lodSettingsFileSchema,
  'model-bounds.json': modelBoundsFileSchema,
  'world.json': worldFileSchema,
  'character-templates.json': characterTemplatesFileSchema,
} as const satisfies Record<string, z.ZodType>;

export type ManifestFile = keyof typeof CORE_MANIFEST_SCHEMAS;
export type ManifestData<F extends ManifestFile> = z.infer<(typeof CORE_MANIFEST_SCHEMAS)[F]>;

export const CORE_REQUIRED = ['npcs.json', 'world-areas.json', 'biomes.json'] as const;

/** Every manifest file the server knows (core and the features' faces), each claimed once. */
export const MANIFEST_SCHEMAS = claimManifests(CORE_MANIFEST_SCHEMAS, FACE_SCHEMAS);

/** The core's and the faces' files as one table; a file both claim stops start-up. */
export function claimManifests(
  core: Readonly<Record<string, z.ZodType>>,
  faces: Readonly<Record<string, z.ZodType>>,
): Readonly<Record<string, z.ZodType>> {
  for (const file of Object.keys(faces)) {
    if (Object.hasOwn(core, file))
      throw new Error(`manifest ${file} is claimed by the core and by a content face`);
  }
  return { ...core, ...faces };
}

/** Manifests whose absence stops loading (spec "Manifest loading"): the core's and the faces'. */
export const REQUIRED_MANIFESTS: readonly string[] = [...CORE_REQUIRED, ...FACE_REQUIRED];

/** The spec's split item files; a folder layout may hold more (ammunition, armor, runes ...). */
export const SPEC_ITEM_FILES = ['weapons', 'tools', 'resources', 'food', 'misc'].map(
  (n) => `items/${n}.json`,
);
