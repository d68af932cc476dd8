/**
 * Client SDK of the game server: a game connection with typed events (GameClient), the local picture
 * of the world it keeps (WorldView), and the agent HTTP API (AgentApi). See docs/agents.md.
 */

export * from './agent-api.ts';
export * from './client.ts';
export type {
  ClientEventName,
  ClientPayload,
  Encoding,
  ServerEventName,
  ServerPayload,
} from './protocol.generated.ts';
export * from './world-view.ts';
