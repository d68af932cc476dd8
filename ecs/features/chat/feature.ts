import { defineFeature } from '../../core/feature.ts';
import { social } from '../social/index.ts';
import { chatCommand } from './chat-command.ts';
import { chatWire } from './wire.ts';

/** Local chat to everyone in view, and private messages by name (never to a player ignoring the sender). */
export const chat = defineFeature({
  name: 'chat',
  commands: { chat: chatCommand },
  uses: [social],
  wire: chatWire,
});
