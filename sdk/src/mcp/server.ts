import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { characterSheet, mapSheet } from './describe.ts';
import { readQuestLog } from './quest-log.ts';
import type { GameSession } from './session.ts';
import { registerActions } from './tools/act.ts';
import { registerInterfaces } from './tools/interfaces.ts';
import { registerLookAndMove } from './tools/look-move.ts';
import { registerSocial } from './tools/social.ts';

/**
 * The MCP server of one game session: twelve outcome-level tools (look, go_to, interact, use_item, make,
 * bank, shop, trade, dialogue, chat, quests, wait_for) and three resources (the character sheet, the
 * map, the quest log). One McpServer per MCP connection; several may share a session.
 */

export const SERVER_INFO = { name: 'hyperscape', version: '0.1.0' };

const INSTRUCTIONS = `You play a character in a multiplayer RPG in the RuneScape tradition, as an ordinary player.
Start with look (what is around you, with ids) and quests list (what to do). Tools take targets by the id
look shows, by manifest id or name, or by a place of the map (game://map). Actions that take time
(walking, gathering, fighting, making) return when they end; every answer ends with what else happened.`;

export function createMcpServer(session: GameSession): McpServer {
  const server = new McpServer(SERVER_INFO, { instructions: INSTRUCTIONS });
  registerLookAndMove(server, session);
  registerActions(server, session);
  registerInterfaces(server, session);
  registerSocial(server, session);
  const json = (uri: URL, value: unknown) => ({
    contents: [{ uri: uri.href, mimeType: 'application/json', text: JSON.stringify(value) }],
  });
  server.registerResource(
    'character',
    'game://character',
    {
      title: 'Character sheet',
      description: 'Your character: position, health, coins, quest points, skills, inventory, equipment.',
      mimeType: 'application/json',
    },
    (uri) => json(uri, characterSheet(session)),
  );
  server.registerResource(
    'map',
    'game://map',
    {
      title: 'Map',
      description:
        'The areas of the world and the known places in each (NPCs, stations, resources, monsters).',
      mimeType: 'application/json',
    },
    (uri) => json(uri, mapSheet(session)),
  );
  server.registerResource(
    'quests',
    'game://quests',
    {
      title: 'Quest log',
      description:
        'Every quest with its status; for those in progress the current stage (type, NPC, target, progress, where).',
      mimeType: 'application/json',
    },
    async (uri) => json(uri, await readQuestLog(session)),
  );
  return server;
}
