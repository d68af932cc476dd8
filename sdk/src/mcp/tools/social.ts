import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { startQuest } from '../../activities/interact.ts';
import { activity } from '../../activity.ts';
import { questLogText, readQuestLog } from '../quest-log.ts';
import type { GameSession } from '../session.ts';
import { answer, approach, endedText, MAX_TIMEOUT_S, Reporter, reachTarget, timeoutMs } from './common.ts';

export function registerSocial(server: McpServer, s: GameSession): void {
  server.registerTool(
    'chat',
    {
      title: 'Say something',
      description:
        'Say a line in local chat (heard by players in view), or send a private message with `to` (a player name). 1-255 characters. Answers what was said, or why it was refused (NOT_FOUND: nobody online has that name).',
      inputSchema: {
        message: z.string().min(1).max(255),
        to: z.string().min(1).max(64).optional(),
      },
    },
    async ({ message, to }, extra) => {
      // Settles on the server's echo of the line, or its refusal (unknown name, a bad message).
      const out = await activity<{ status: 'sent' }>(s.game, {
        origin: 'player:chat',
        timeoutMs: 3000,
        signal: extra.signal,
        start: () => (to !== undefined ? s.game.whisper(to, message) : s.game.say(message)),
        listen: (finish) => [
          s.game.on('chat:message', (m) => {
            if (m.fromId === s.game.world.selfId) finish({ status: 'sent' });
          }),
        ],
      });
      if (out.status === 'refused')
        return answer(s, `Not sent: ${out.error.code}: ${out.error.message}`, true);
      return answer(s, to !== undefined ? `You told ${to}: ${message}` : `You said: ${message}`);
    },
  );

  server.registerTool(
    'quests',
    {
      title: 'Quests',
      description:
        'The quest log (`list`): every quest with its status and, for those in progress, the current stage: what to do (dialogue: talk to an NPC; gather: collect items; kill: defeat monsters; interact: make items; deliver: bring items to an NPC), progress, and where (known places). `start` a quest: walks to its start NPC and starts it.',
      inputSchema: {
        action: z.enum(['list', 'start']),
        quest: z.string().min(1).max(128).optional().describe('start: the quest id or name.'),
        timeout_s: z.number().min(1).max(MAX_TIMEOUT_S).optional(),
      },
    },
    async (args, extra) => {
      if (args.action === 'list') return answer(s, questLogText(await readQuestLog(s)));
      const q = (args.quest ?? '').toLowerCase();
      const quest = [...s.content.quests.values()].find((x) => x.id === q || x.name.toLowerCase() === q);
      if (quest === undefined)
        return answer(s, `No quest "${args.quest ?? ''}". ${questLogText(await readQuestLog(s))}`, true);
      const ms = timeoutMs(args.timeout_s);
      const r = await reachTarget(s, quest.startNpc, 'talk', {
        timeoutMs: ms,
        signal: extra.signal,
        report: new Reporter(extra),
      });
      if ('error' in r)
        return answer(s, `Cannot reach ${s.content.npcName(quest.startNpc)}: ${r.error}`, true);
      if (s.game.world.distanceTo(r.entity.x, r.entity.z) > 2) {
        await approach(s, r.entity, { reach: 2, timeoutMs: ms, signal: extra.signal });
      }
      const out = await startQuest(s.game, quest.id, { signal: extra.signal });
      if (out.status !== 'done') return answer(s, `Starting ${quest.name} ${endedText(out)}.`, true);
      // The talk that starts a quest may finish its first stage at once: read the log after it.
      return answer(s, `Started ${quest.name}.\n${questLogText(await readQuestLog(s))}`);
    },
  );
}
