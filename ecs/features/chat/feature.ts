import { defineFeature } from '../../core/feature.ts';
import { social } from '../social/index.ts';
import { chatCommand } from './chat-command.ts';
import { CHAT, forgetSender, hashChat } from './private-limit.ts';
import { chatWire } from './wire.ts';

/**
 * Local chat to everyone in view, and private messages by name (never to a player ignoring the sender;
 * at most a few a second per sender).
 */
export const chat = defineFeature({
  name: 'chat',
  state: CHAT,
  commands: { chat: chatCommand },
  // A private message needs no tick: it reads who is online and who ignores whom, and changes nothing
  // anyone sees. Local chat waits for the tick: who hears it depends on where everyone stands.
  immediate: { chat: (cmd) => cmd.to !== undefined },
  on: { leave: forgetSender },
  hash: hashChat,
  uses: [social],
  wire: chatWire,
});
