/**
 * Client SDK of the game server: a game connection with typed events (GameClient), the local picture
 * of the world it keeps (WorldView), long actions that settle with their outcome (walkTo, gatherAt,
 * makeRecipe, fight, talkTo...), and the agent HTTP API (AgentApi). The MCP server is in
 * `hyperscape-sdk/mcp`. See docs/agents.md.
 */
export * from './activities/interact.ts';
export * from './activities/skilling.ts';
export * from './activities/walk.ts';
export {
  type ActivityOptions,
  countItems,
  type Ended,
  itemDelta,
  type Progress,
  type Refusal,
} from './activity.ts';
export * from './agent-api.ts';
export * from './client.ts';
export * from './protocol.generated.ts';
export * from './world-view.ts';
