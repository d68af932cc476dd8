import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { lookText, nameOf, where } from '../describe.ts';
import type { GameSession, NoteKind } from '../session.ts';
import { answer, approach, MAX_TIMEOUT_S, Reporter, resolveTarget, timeoutMs, walkText } from './common.ts';

const timeout = z
  .number()
  .min(1)
  .max(MAX_TIMEOUT_S)
  .optional()
  .describe('Seconds before giving up (default 50). Long actions report progress meanwhile.');

export function registerLookAndMove(server: McpServer, s: GameSession): void {
  server.registerTool(
    'look',
    {
      title: 'Look around',
      description:
        'Your own state (tile, health, coins, free slots) and what is in view, nearest first: every entity with its id (the `target` other tools take), its [manifest id], tile, distance and the verbs it answers (attack, talk, shop, bank, gather, pickup, trade, use, pray); resources say what they give and need. Ends with what happened since your last call.',
      inputSchema: {
        kind: z.enum(['npc', 'resource', 'station', 'item', 'player']).optional().describe('Only this kind.'),
        radius: z.number().int().min(1).max(64).optional().describe('Only within this many tiles.'),
      },
      annotations: { readOnlyHint: true },
    },
    async ({ kind, radius }) =>
      answer(
        s,
        lookText(s, { ...(kind !== undefined ? { kind } : {}), ...(radius !== undefined ? { radius } : {}) }),
      ),
  );

  server.registerTool(
    'go_to',
    {
      title: 'Walk somewhere',
      description:
        'Walk to a tile (x, z) or next to a target: an entity id from look, a manifest id or a name of something in view, or a place of the map (an NPC, station, resource or monster place, e.g. "angler_mags", "bank", "spot_shallows"). Returns when you arrive, are stopped, or time out, with progress notifications on the way.',
      inputSchema: {
        target: z.string().min(1).max(128).optional().describe('Entity id, manifest id, name or map place.'),
        x: z.number().int().optional(),
        z: z.number().int().optional(),
        run: z.boolean().optional().describe('Run (twice as fast).'),
        timeout_s: timeout,
      },
    },
    async (args, extra) => {
      const started = Date.now();
      let dest: { x: number; z: number };
      let reach = 0;
      let label: string;
      if (args.target !== undefined) {
        const t = resolveTarget(s, args.target);
        if (t.kind === 'none') return answer(s, `Cannot go there: ${t.why}.`, true);
        const p = t.kind === 'entity' ? t.entity : t.place;
        dest = { x: p.x, z: p.z };
        reach = 1;
        label =
          t.kind === 'entity'
            ? `${nameOf(s, t.entity)} (${t.entity.id})`
            : `${t.place.name} (${t.place.kind})`;
      } else if (args.x !== undefined && args.z !== undefined) {
        dest = { x: args.x, z: args.z };
        label = `${args.x},${args.z}`;
      } else return answer(s, 'Give a target, or both x and z.', true);
      const out = await approach(s, dest, {
        reach,
        timeoutMs: timeoutMs(args.timeout_s),
        signal: extra.signal,
        report: new Reporter(extra),
        ...(args.run !== undefined ? { run: args.run } : {}),
      });
      const text = `Going to ${label} at ${where(s, dest.x, dest.z)}: ${walkText(s, out, (Date.now() - started) / 1000)}`;
      return answer(s, text, out.status !== 'arrived');
    },
  );

  server.registerTool(
    'wait_for',
    {
      title: 'Wait for something to happen',
      description:
        'Wait until something happens, then tell it: `chat` (a chat line or a message from your owner), `trade` (a trade request or change), `xp`, `items` (inventory changed), `quest`, `attacked`, `dialogue`, or `any` of these. Returns at once with the first such event since your last answer, else at the next one or after the timeout, with everything that happened meanwhile.',
      inputSchema: {
        event: z.enum(['any', 'chat', 'trade', 'xp', 'items', 'quest', 'attacked', 'dialogue']),
        timeout_s: z
          .number()
          .min(1)
          .max(MAX_TIMEOUT_S)
          .optional()
          .describe('Seconds to wait at most (default 30).'),
      },
      annotations: { readOnlyHint: true },
    },
    async ({ event, timeout_s }, extra) => {
      const match = (kind: NoteKind) => event === 'any' || kind === event;
      const hit = await s.nextNote(match, (timeout_s ?? 30) * 1000, { signal: extra.signal });
      return answer(
        s,
        hit === undefined ? `Nothing (${event}) happened within ${timeout_s ?? 30} s.` : `Happened: ${hit}`,
      );
    },
  );
}
