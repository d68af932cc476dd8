import { z } from 'zod';
import { levelSchema } from '../../ecs/core/faces/manifest-primitives.ts';

/** tier-requirements.json: level tables of equipment tiers (no rule reads them yet). */

const levelTable = z.record(z.string(), z.record(z.string(), levelSchema));
export const tierRequirementsFileSchema = z.object({
  melee: levelTable.optional(),
  tools: levelTable.optional(),
  ranged: levelTable.optional(),
  magic: levelTable.optional(),
});
