import type { z } from 'zod';
import { biomesFileSchema, worldAreasFileSchema } from './areas.ts';
import {
  ammunitionFileSchema,
  combatSpellsFileSchema,
  prayersFileSchema,
  runesFileSchema,
  tierRequirementsFileSchema,
} from './combat.ts';
import { fishingFileSchema, miningFileSchema, woodcuttingFileSchema } from './gathering.ts';
import { npcsFileSchema } from './npcs.ts';
import { lodSettingsFileSchema, musicFileSchema, vegetationFileSchema } from './presentation.ts';
import { questsFileSchema, skillUnlocksFileSchema } from './progression.ts';
import { characterTemplatesFileSchema, worldFileSchema } from './project.ts';
import {
  cookingFileSchema,
  craftingFileSchema,
  firemakingFileSchema,
  fletchingFileSchema,
  runecraftingFileSchema,
  smeltingFileSchema,
  smithingFileSchema,
  tanningFileSchema,
} from './recipes.ts';
import { storesFileSchema } from './stores.ts';
import {
  buildingsFileSchema,
  duelArenasFileSchema,
  modelBoundsFileSchema,
  stationsFileSchema,
  toolsFileSchema,
} from './world-objects.ts';

/**
 * Every manifest file the server knows, relative to the manifests directory, with its schema. Items are
 * separate (items.json or items/*.json). Required ones follow the spec's "Manifest loading".
 */
export const MANIFEST_SCHEMAS = {
  'npcs.json': npcsFileSchema,
  'world-areas.json': worldAreasFileSchema,
  'biomes.json': biomesFileSchema,
  'stores.json': storesFileSchema,
  'gathering/woodcutting.json': woodcuttingFileSchema,
  'gathering/mining.json': miningFileSchema,
  'gathering/fishing.json': fishingFileSchema,
  'recipes/cooking.json': cookingFileSchema,
  'recipes/smelting.json': smeltingFileSchema,
  'recipes/smithing.json': smithingFileSchema,
  'recipes/firemaking.json': firemakingFileSchema,
  'recipes/crafting.json': craftingFileSchema,
  'recipes/fletching.json': fletchingFileSchema,
  'recipes/tanning.json': tanningFileSchema,
  'recipes/runecrafting.json': runecraftingFileSchema,
  'prayers.json': prayersFileSchema,
  'stations.json': stationsFileSchema,
  'tools.json': toolsFileSchema,
  'ammunition.json': ammunitionFileSchema,
  'runes.json': runesFileSchema,
  'combat-spells.json': combatSpellsFileSchema,
  'music.json': musicFileSchema,
  'vegetation.json': vegetationFileSchema,
  'buildings.json': buildingsFileSchema,
  'quests.json': questsFileSchema,
  'skill-unlocks.json': skillUnlocksFileSchema,
  'tier-requirements.json': tierRequirementsFileSchema,
  'duel-arenas.json': duelArenasFileSchema,
  'lod-settings.json': lodSettingsFileSchema,
  'model-bounds.json': modelBoundsFileSchema,
  'world.json': worldFileSchema,
  'character-templates.json': characterTemplatesFileSchema,
} as const satisfies Record<string, z.ZodType>;

export type ManifestFile = keyof typeof MANIFEST_SCHEMAS;
export type ManifestData<F extends ManifestFile> = z.infer<(typeof MANIFEST_SCHEMAS)[F]>;

export const REQUIRED_MANIFESTS = ['npcs.json', 'world-areas.json', 'biomes.json', 'stores.json'] as const;

/** The spec's split item files; a folder layout may hold more (ammunition, armor, runes ...). */
export const SPEC_ITEM_FILES = ['weapons', 'tools', 'resources', 'food', 'misc'].map(
  (n) => `items/${n}.json`,
);
