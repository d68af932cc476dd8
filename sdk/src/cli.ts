#!/usr/bin/env node
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { serveHttp } from './mcp/http.ts';
import { GameSession } from './mcp/session.ts';
import { serveStdio } from './mcp/stdio.ts';

/**
 * `hyperscape-sdk mcp`: an MCP server that plays one character. Logs go to stderr only (stdout carries
 * the MCP messages in stdio mode).
 */

const USAGE = `Usage: hyperscape-sdk mcp [options]

Plays one character of a hyperscape game server for an MCP client.

  --url <ws-url>        game server WebSocket (default ws://127.0.0.1:5555/ws; env HYPERSCAPE_URL)
  --token <token>       session or identity-provider token (env HYPERSCAPE_TOKEN); without one,
                        anonymous servers make a new guest account
  --character <id>      play this character of the account
  --name <name>         name of the character to create when the account has none
  --http <port>         serve streamable HTTP at http://<host>:<port>/mcp instead of stdio
  --host <address>      HTTP listening address (default 127.0.0.1)
  --auth-token <secret> HTTP: require "Authorization: Bearer <secret>" (env HYPERSCAPE_MCP_AUTH);
                        needed to listen on any address but the loopback
  --help, --version`;

const log = (line: string) => process.stderr.write(`[hyperscape-mcp] ${line}\n`);

function version(): string {
  const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as {
    version: string;
  };
  return pkg.version;
}

async function main(argv: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      url: { type: 'string' },
      token: { type: 'string' },
      character: { type: 'string' },
      name: { type: 'string' },
      http: { type: 'string' },
      host: { type: 'string' },
      'auth-token': { type: 'string' },
      help: { type: 'boolean' },
      version: { type: 'boolean' },
    },
  });
  if (values.version) {
    process.stdout.write(`${version()}\n`);
    return 0;
  }
  if (values.help || positionals[0] !== 'mcp') {
    process.stderr.write(`${USAGE}\n`);
    return values.help ? 0 : 2;
  }
  const env = process.env;
  const url = values.url ?? env['HYPERSCAPE_URL'] ?? 'ws://127.0.0.1:5555/ws';
  const token = values.token ?? env['HYPERSCAPE_TOKEN'];
  const authToken = values['auth-token'] ?? env['HYPERSCAPE_MCP_AUTH'];
  const host = values.host ?? '127.0.0.1';
  const port = values.http === undefined ? undefined : Number(values.http);
  if (port !== undefined && !(Number.isInteger(port) && port >= 0 && port < 65536)) {
    log(`--http takes a port number, not "${values.http}"`);
    return 2;
  }
  if (port !== undefined && !['127.0.0.1', 'localhost', '::1'].includes(host) && authToken === undefined) {
    log(`listening on ${host} lets anyone who reaches it play your character: give --auth-token`);
    return 2;
  }
  const session = await GameSession.open({
    url,
    ...(token !== undefined ? { token } : {}),
    ...(values.character !== undefined ? { characterId: values.character } : {}),
    ...(values.name !== undefined ? { name: values.name } : {}),
  });
  const me = session.game.world.self;
  log(`playing ${me?.name ?? '?'} (${session.game.characterId}) on ${url}`);
  const stop = async () => {
    await session.close();
  };
  if (port === undefined) {
    await serveStdio(session);
    await stop();
    return 0;
  }
  const served = await serveHttp(session, { port, host, ...(authToken !== undefined ? { authToken } : {}) });
  log(`MCP over streamable HTTP at ${served.url}`);
  await new Promise<void>((resolve) => {
    process.once('SIGINT', resolve);
    process.once('SIGTERM', resolve);
  });
  await served.close();
  await stop();
  return 0;
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (err: unknown) => {
    log(err instanceof Error ? err.message : String(err));
    process.exit(1);
  },
);
