import { z } from 'zod';
import { defineContent, type TileRect } from '../../core/faces/content.ts';
import {
  boundsSchema,
  chanceSchema,
  idSchema,
  levelSchema,
  nonNegInt,
  posInt,
} from '../../core/faces/manifest-primitives.ts';

/**
 * Agility's content face: agility.json, the obstacles (a course's logs and walls, a shortcut over a rock
 * face) with the level they need, the xp they give, how long a crossing takes, where it starts and ends,
 * and the chance and cost of a fall. An obstacle may lay the tiles it crosses (`blocks`: a ridge, a
 * ditch), so a shortcut is one because walking there is not possible.
 */

const tileSchema = z.object({ x: z.number().int(), z: z.number().int() });

export const agilityFileSchema = z.object({
  obstacles: z.array(
    z.object({
      id: idSchema,
      name: z.string().min(1),
      level: levelSchema,
      xp: z.number().min(0),
      ticks: posInt,
      start: tileSchema,
      end: tileSchema,
      /** A shortcut is crossed both ways; a course obstacle only from its start. */
      twoWay: z.boolean().default(false),
      /** The chance to fall at the obstacle's own level; it falls to nothing 20 levels above it. */
      failChance: chanceSchema.default(0),
      failDamage: nonNegInt.default(0),
      blocks: z.array(boundsSchema).default([]),
    }),
  ),
});

/** An obstacle as the simulation reads it (agility.json). */
export interface ObstacleInfo {
  readonly id: string;
  readonly name: string;
  readonly level: number;
  readonly xp: number;
  readonly ticks: number;
  readonly start: { readonly x: number; readonly z: number };
  readonly end: { readonly x: number; readonly z: number };
  readonly twoWay: boolean;
  readonly failChance: number;
  readonly failDamage: number;
}

declare module '../../core/content.ts' {
  interface ContentParts {
    /** Agility obstacles by id, in manifest order. */
    obstacles: ReadonlyMap<string, ObstacleInfo>;
  }
}

const FILE = 'agility.json';

export const agilityContent = defineContent({
  files: { 'agility.json': agilityFileSchema },
  docs: {
    'agility.json':
      'Agility obstacles: `{ obstacles: [{ id, name, level, xp, ticks, start: { x, z }, end: { x, z }, twoWay (default false), failChance (0..1 at the obstacle level, default 0), failDamage (default 0), blocks: [{ minX, maxX, minZ, maxZ }] }] }`. `player:action cross` on the obstacle (it stands on its start tile, and on its end tile too when `twoWay`) takes `ticks` ticks and lands on the other end. `blocks` are tiles the obstacle makes unwalkable (the ridge a shortcut climbs); start and end must be walkable tiles of the world.',
  },
  blocks: (d): TileRect[] => (d['agility.json']?.obstacles ?? []).flatMap((o) => o.blocks),
  check(d, ctx) {
    const obstacles = d['agility.json']?.obstacles ?? [];
    ctx.unique(
      FILE,
      'obstacle',
      obstacles.map((o) => o.id),
    );
    for (const o of obstacles) {
      for (const side of ['start', 'end'] as const) {
        const t = o[side];
        if (!ctx.inMap(t.x, t.z))
          ctx.problem(`${FILE}: obstacle "${o.id}" (${side}): tile ${t.x},${t.z} is outside the world`);
        else if (!ctx.walkable(t.x, t.z))
          ctx.problem(`${FILE}: obstacle "${o.id}" (${side}): tile ${t.x},${t.z} is not walkable`);
      }
      if (o.start.x === o.end.x && o.start.z === o.end.z)
        ctx.problem(`${FILE}: obstacle "${o.id}" (end): the same tile as its start`);
    }
  },
  build: (d) => ({
    obstacles: new Map(
      (d['agility.json']?.obstacles ?? []).map((o) => [
        o.id,
        Object.freeze({
          id: o.id,
          name: o.name,
          level: o.level,
          xp: o.xp,
          ticks: o.ticks,
          start: Object.freeze({ x: o.start.x, z: o.start.z }),
          end: Object.freeze({ x: o.end.x, z: o.end.z }),
          twoWay: o.twoWay,
          failChance: o.failChance,
          failDamage: o.failDamage,
        }),
      ]),
    ),
  }),
});
