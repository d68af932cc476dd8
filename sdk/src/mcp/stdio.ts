import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { createMcpServer } from './server.ts';
import type { GameSession } from './session.ts';

/**
 * The MCP server over this process's standard input and output (how desktop MCP clients start local
 * servers). Resolves when the client closes the stream. Nothing else may write to stdout meanwhile.
 */
export async function serveStdio(session: GameSession): Promise<void> {
  const transport = new StdioServerTransport();
  const closed = new Promise<void>((resolve) => {
    transport.onclose = () => resolve();
    process.stdin.once('end', () => resolve());
  });
  await createMcpServer(session).connect(transport);
  await closed;
}
