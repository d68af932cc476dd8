/**
 * The MCP server of the SDK: lets any Model Context Protocol client play a character through an
 * ordinary game connection. `GameSession.open` connects; `createMcpServer` makes the MCP server of a
 * session (connect it to any MCP transport); `serveHttp` serves it over streamable HTTP; `serveStdio`
 * over standard input and output.
 */
export {
  type Area,
  Content,
  loadContent,
  type NpcInfo,
  type Place,
  type QuestInfo,
  type ResourceInfo,
} from './content.ts';
export { type HttpMcp, type HttpOptions, serveHttp } from './http.ts';
export { type QuestLog, type QuestView, readQuestLog } from './quest-log.ts';
export { createMcpServer, SERVER_INFO } from './server.ts';
export { GameSession, httpBaseOf, type SessionOptions } from './session.ts';
export { serveStdio } from './stdio.ts';
