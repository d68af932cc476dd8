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
  on: { leave: forgetSender },
  hash: hashChat,
  uses: [social],
  wire: chatWire,
});
