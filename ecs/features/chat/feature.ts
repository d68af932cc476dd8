import { defineFeature } from '../../core/feature.ts';
import { chatCommand } from './chat-command.ts';

/** Local chat to everyone in view, and private messages by name. */
export const chat = defineFeature({
  name: 'chat',
  commands: { chat: chatCommand },
});
