import { z } from 'zod';
import { defineContent, footprintRect } from '../../core/faces/content.ts';
import { assetPathSchema, idSchema } from '../../core/faces/manifest-primitives.ts';

/**
 * The stations' content face: stations.json, the kinds of station (bank booth, furnace, anvil, range,
 * altar) with their names and models. world-areas.json places them; a placed station blocks its model's
 * footprint.
 */

export const stationsFileSchema = z.object({
  stations: z.array(
    z.object({
      type: idSchema,
      name: z.string().min(1),
      model: assetPathSchema.optional(),
      modelScale: z.number().positive().default(1),
      examine: z.string().optional(),
    }),
  ),
});

/** A kind of station as the world shows it. */
export interface StationTypeInfo {
  readonly type: string;
  readonly name: string;
}

declare module '../../core/content.ts' {
  interface ContentParts {
    /** Station kinds by type (stations.json). */
    stationTypes: ReadonlyMap<string, StationTypeInfo>;
  }
}

declare module '../../core/faces/content.ts' {
  interface IdSpaces {
    /** Station types, placed by world-areas.json `stations` and needed by recipes. */
    station: true;
  }
}

export const stationsContent = defineContent({
  files: { 'stations.json': stationsFileSchema },
  docs: {
    'stations.json':
      'Kinds of station: `{ stations: [{ type, name, model? (asset:// path), modelScale (default 1), examine? }] }`. Placed by world-areas.json `stations` (`type` must be one of these); a placed station blocks its model footprint (model-bounds.json, else one tile).',
  },
  defines: (d) => (d['stations.json'] ? { station: d['stations.json'].stations.map((s) => s.type) } : {}),
  blocks: (d, ctx) => {
    const models = new Map((d['stations.json']?.stations ?? []).map((s) => [s.type, s.model]));
    return ctx.placements.stations.map((s) => footprintRect(s.x, s.z, ctx.footprint(models.get(s.id))));
  },
  check(d, ctx) {
    ctx.unique(
      'stations.json',
      'station type',
      (d['stations.json']?.stations ?? []).map((s) => s.type),
    );
  },
  build: (d) => ({
    stationTypes: new Map(
      (d['stations.json']?.stations ?? []).map((s) => [
        s.type,
        Object.freeze({ type: s.type, name: s.name }),
      ]),
    ),
  }),
});
