/** What other features and adapters may use of chat. */
export { chatLine, chatProblem, cleanChat, MAX_CHAT_LENGTH, sanitizeChat } from './chat-command.ts';
export type { ChatChannel } from './events.ts';
export { chat } from './feature.ts';
export { PRIVATE_MESSAGE_BURST, PRIVATE_MESSAGES_PER_SECOND } from './private-limit.ts';
