import { z } from 'zod';
import { definePersist } from '../../core/faces/persist.ts';
import { MAX_RUN_ENERGY } from './run-energy.ts';

/** Movement's persistence face: run energy survives a relog (one JSON value per character). */
export const movementPersist = definePersist({
  slice: 'movement',
  schema: z.object({ runEnergy: z.number().int().min(0).max(MAX_RUN_ENERGY) }),
});
