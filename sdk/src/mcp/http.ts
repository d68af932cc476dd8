import { randomUUID, timingSafeEqual } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { createMcpServer } from './server.ts';
import type { GameSession } from './session.ts';

/**
 * The MCP server over streamable HTTP at `/mcp`, for agents that run elsewhere. Every MCP session (one
 * `initialize`) gets its own McpServer on the one game session, so a client that reconnects plays on the
 * same character. With `authToken`, every request must carry `Authorization: Bearer <authToken>`;
 * whoever reaches this port without one plays the character, so the CLI refuses to listen beyond the
 * loopback without it. Host headers other than the listening address are refused (DNS rebinding).
 */

export interface HttpOptions {
  port: number;
  /** Default 127.0.0.1. */
  host?: string;
  authToken?: string;
  /** MCP sessions open at once, at most. Default 16. */
  maxSessions?: number;
}

export interface HttpMcp {
  url: string;
  port: number;
  close(): Promise<void>;
}

const isLoopback = (host: string) => host === '127.0.0.1' || host === 'localhost' || host === '::1';

export async function serveHttp(session: GameSession, opts: HttpOptions): Promise<HttpMcp> {
  const host = opts.host ?? '127.0.0.1';
  const transports = new Map<string, StreamableHTTPServerTransport>();
  const expected = opts.authToken === undefined ? undefined : Buffer.from(`Bearer ${opts.authToken}`);
  let port = opts.port;

  const fail = (res: http.ServerResponse, status: number, message: string) => {
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32000, message }, id: null }));
  };
  const authorised = (req: http.IncomingMessage) => {
    if (expected === undefined) return true;
    const given = Buffer.from(req.headers.authorization ?? '');
    return given.length === expected.length && timingSafeEqual(given, expected);
  };

  const server = http.createServer((req, res) => {
    void (async () => {
      const path = new URL(req.url ?? '/', 'http://x').pathname;
      if (path !== '/mcp') return fail(res, 404, 'the MCP endpoint is /mcp');
      if (!authorised(req)) return fail(res, 401, 'missing or wrong bearer token');
      const id = req.headers['mcp-session-id'];
      const known = typeof id === 'string' ? transports.get(id) : undefined;
      if (known !== undefined) return known.handleRequest(req, res);
      if (typeof id === 'string') return fail(res, 404, 'unknown MCP session: initialize again');
      if (req.method !== 'POST') return fail(res, 400, 'initialize with a POST first');
      if (transports.size >= (opts.maxSessions ?? 16)) return fail(res, 503, 'too many MCP sessions');
      const transport = new StreamableHTTPServerTransport({
        sessionIdGenerator: () => randomUUID(),
        // Tool calls are a few hundred bytes; nothing an agent sends needs more.
        maxRequestBodySize: 256 * 1024,
        onsessioninitialized: (sid) => {
          transports.set(sid, transport);
        },
        ...(isLoopback(host)
          ? {
              enableDnsRebindingProtection: true,
              allowedHosts: [`127.0.0.1:${port}`, `localhost:${port}`, `[::1]:${port}`],
            }
          : {}),
      });
      transport.onclose = () => {
        if (transport.sessionId !== undefined) transports.delete(transport.sessionId);
      };
      await createMcpServer(session).connect(transport);
      await transport.handleRequest(req, res);
    })().catch((err: unknown) => {
      if (!res.headersSent) fail(res, 500, err instanceof Error ? err.message : String(err));
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port, host, () => resolve());
  });
  port = (server.address() as AddressInfo).port;
  return {
    port,
    url: `http://${host.includes(':') ? `[${host}]` : host}:${port}/mcp`,
    async close() {
      await Promise.all([...transports.values()].map((t) => t.close()));
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
