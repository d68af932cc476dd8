import { z } from 'zod';
import {
  type CommandBase,
  clientEvent,
  defineWire,
  serverEvent,
  type Translation,
} from '../../core/faces/wire.ts';
import { chatProblem, cleanChat } from './chat-command.ts';
import { LOCAL_CHAT_HEARERS } from './hearers.ts';
import { PRIVATE_MESSAGE_BURST, PRIVATE_MESSAGES_PER_SECOND } from './private-limit.ts';

/** Chat's wire face: local chat, private messages, and chat commands (`/...`). */

/** Where a chat line was said. */
export const CHAT_CHANNELS = ['local', 'private', 'system'] as const;

export const chatMessage = z.object({
  fromId: z.string(),
  fromName: z.string(),
  message: z.string(),
  channel: z.enum(CHAT_CHANNELS),
  /** The tick's wall-clock time in ms (for display only, never for rules). */
  timestamp: z.number().int(),
});

export const chatWire = defineWire({
  client: {
    'player:chat': clientEvent({
      schema: z.object({
        message: z.string().max(4096),
        to: z.string().min(1).max(64).optional(),
      }),
      doc: `Local chat (heard within view: by the sender and, in a crowd, the ${LOCAL_CHAT_HEARERS - 1} players nearest to it) or, with \`to\`, a private message by player name (\`NOT_FOUND\` when nobody online has it; at most ${PRIVATE_MESSAGES_PER_SECOND} a second per sender, ${PRIVATE_MESSAGE_BURST} at once, else \`RATE_LIMITED\`). Neither reaches a player who ignores you, and you are not told (see [social.md](social.md)). 1-255 characters after removing control and invisible format characters (direction overrides, zero-width characters) and trimming; a line that shows nothing is \`BAD_MESSAGE\`. A message starting with \`/\` is a command (see [admin.md](admin.md)); \`/admin <code>\` unlocks admin commands.`,
      translate: (base, p) => chat(base, p.message, p.to),
    }),
  },
  server: {
    'chat:message': serverEvent({
      schema: chatMessage,
      doc: 'A chat line: `local` (heard within view, by the nearest hundred in a crowd), `private`, or `system` (the server, e.g. command replies).',
      from: 'chat',
    }),
  },
});

/** The chat rules (length, invisible characters, blank) are the simulation's: checked here only to route commands. */
function chat(base: CommandBase, raw: string, to: string | undefined): Translation {
  const message = cleanChat(raw);
  const problem = chatProblem(message);
  if (problem) return { kind: 'error', code: 'BAD_MESSAGE', message: problem };
  if (message.startsWith('/')) {
    // Commands are never broadcast.
    const [head = '', ...args] = message.slice(1).split(/\s+/);
    const name = head.toLowerCase();
    if (name === '') return { kind: 'error', code: 'BAD_MESSAGE', message: 'empty command' };
    if (name === 'admin') return { kind: 'admin', code: args.join(' ') };
    return { kind: 'command', command: { ...base, type: 'chatCommand', name, args } };
  }
  return {
    kind: 'command',
    command: { ...base, type: 'chat', message, ...(to !== undefined ? { to } : {}) },
  };
}
