import os from 'node:os';
import { z } from 'zod';

/**
 * Options of npm run bench:load, from `--name=value` arguments or LOAD_* environment variables:
 *   --bots=2000 --scenario=spread|hotspot --ramp=200 (bots/s) --duration=60 (s measured after ramp)
 *   --workers=2 --tickMs=600 --url=ws://host:port (use a running server instead of starting one)
 *   --serverRoot=/path/to/checkout: start that checkout's server (an older one, for before/after)
 *   --contentRoot=/path/to/checkout: the world's manifests from that checkout (the same world for two
 *   servers, so that a before/after pair measures the code and not the content it grew)
 *   --moveEvery=3..6 ticks between moves, --chatChance=0.05 per move.
 *   --scenario=combat (npm run bench:combat): every bot decodes everything and fights the NPCs placed in
 *   an --areaSize square around the spawn (--npcs, as many as bots by default): attacks, eats, loots.
 *   --probes=0.1: share of bots that decode every world:update and measure move latency; the others
 *   skip world:update frames undecoded (as cheap as a bot can be on the server's own machine) and track
 *   their own position from the moves they send.
 */

const schema = z.object({
  bots: z.coerce.number().int().min(1).max(50_000).default(2000),
  scenario: z.enum(['spread', 'hotspot', 'combat']).default('spread'),
  /** Combat: NPCs placed in the fight area around the spawn (as many as bots by default). */
  npcs: z.coerce.number().int().min(0).optional(),
  /** Combat: side of the square around the spawn the NPCs are placed in. */
  areaSize: z.coerce.number().int().min(10).max(200).default(80),
  ramp: z.coerce.number().positive().default(200),
  duration: z.coerce.number().positive().default(60),
  workers: z.coerce
    .number()
    .int()
    .min(1)
    .max(64)
    .default(Math.max(1, Math.min(4, os.availableParallelism() - 1))),
  tickMs: z.coerce.number().int().min(10).default(600),
  url: z.string().url().optional(),
  /** Start the server from another checkout (before/after runs with the same bench: /work/base). */
  serverRoot: z.string().optional(),
  /** Copy the world's manifests from this checkout instead of the server's own. */
  contentRoot: z.string().optional(),
  moveEveryMin: z.coerce.number().int().min(1).default(3),
  moveEveryMax: z.coerce.number().int().min(1).default(6),
  chatChance: z.coerce.number().min(0).max(1).default(0.05),
  /** Spread: how far from the spawn each bot settles (tiles). */
  spreadRadius: z.coerce.number().int().min(0).default(300),
  /** Hotspot: side of the square the bots stay in. */
  hotspotSize: z.coerce.number().int().min(1).default(40),
  /** Share of bots that are latency probes (decode every frame); the rest skip world:update. */
  probes: z.coerce.number().min(0).max(1).default(0.1),
});

export type LoadOptions = z.output<typeof schema>;

export function parseOptions(argv: string[], env: NodeJS.ProcessEnv): LoadOptions {
  const raw: Record<string, string> = {};
  for (const [k, v] of Object.entries(env)) {
    if (k.startsWith('LOAD_') && v !== undefined) {
      raw[
        k
          .slice(5)
          .toLowerCase()
          .replace(/_(\w)/g, (_, c: string) => c.toUpperCase())
      ] = v;
    }
  }
  for (const arg of argv) {
    const m = /^--([a-zA-Z]+)=(.*)$/.exec(arg);
    if (m) raw[m[1] as string] = m[2] as string;
  }
  const parsed = schema.safeParse(raw);
  if (!parsed.success) throw new Error(`bench:load options: ${z.prettifyError(parsed.error)}`);
  return parsed.data;
}
