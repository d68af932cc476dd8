import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { promisify } from 'node:util';
import postgres from 'postgres';
import type { SaveLogger } from './save-scheduler.ts';

/**
 * USE_LOCAL_POSTGRES (development only): a PostgreSQL for the developer, stopped with the server.
 * A docker container when `docker info` answers; otherwise a cluster from local binaries
 * (/usr/lib/postgresql/<version>/bin) in ${WORLD}/.data/postgres on a free port. As root, the cluster
 * runs as the `postgres` system user (initdb refuses root).
 */

const run = promisify(execFile);

export interface LocalPostgres {
  url: string;
  stop(): Promise<void>;
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const addr = srv.address();
      srv.close(() => (typeof addr === 'object' && addr ? resolve(addr.port) : reject(new Error('no port'))));
    });
  });
}

async function waitForConnect(url: string, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const sql = postgres(url, { max: 1, connect_timeout: 2, onnotice: () => {} });
    try {
      await sql`SELECT 1`;
      return;
    } catch (err) {
      if (Date.now() > deadline) throw err;
      await new Promise((r) => setTimeout(r, 300));
    } finally {
      await sql.end({ timeout: 1 }).catch(() => {});
    }
  }
}

async function dockerAnswers(): Promise<boolean> {
  try {
    await run('docker', ['info'], { timeout: 5000 });
    return true;
  } catch {
    return false;
  }
}

function localBinDir(): string | undefined {
  const root = '/usr/lib/postgresql';
  if (!existsSync(root)) return undefined;
  const versions = readdirSync(root)
    .filter((v) => existsSync(path.join(root, v, 'bin', 'initdb')))
    .sort((a, b) => Number(b) - Number(a));
  return versions[0] ? path.join(root, versions[0], 'bin') : undefined;
}

export async function startLocalPostgres(worldDir: string, logger: SaveLogger): Promise<LocalPostgres> {
  const port = await freePort();
  const url = `postgres://postgres@127.0.0.1:${port}/postgres`;
  if (await dockerAnswers()) {
    const name = `hyperscape-pg-${port}`;
    await run('docker', [
      'run',
      '-d',
      '--rm',
      '--name',
      name,
      '-e',
      'POSTGRES_HOST_AUTH_METHOD=trust',
      '-p',
      `127.0.0.1:${port}:5432`,
      'postgres:15',
    ]);
    logger.info({ container: name, port }, 'local PostgreSQL container started');
    await waitForConnect(url, 60_000);
    return { url, stop: async () => void (await run('docker', ['stop', name]).catch(() => {})) };
  }
  const bin = localBinDir();
  if (!bin)
    throw new Error(
      'USE_LOCAL_POSTGRES: no docker engine answers and no PostgreSQL binaries under /usr/lib/postgresql',
    );
  const dataDir = path.join(worldDir, '.data', 'postgres');
  mkdirSync(dataDir, { recursive: true });
  const asRoot = process.getuid?.() === 0;
  // initdb and the server refuse to run as root: run them as the postgres system user.
  const pg = async (tool: string, args: string[]) => {
    const cmd = path.join(bin, tool);
    if (!asRoot) return run(cmd, args);
    return run('runuser', ['-u', 'postgres', '--', cmd, ...args]);
  };
  if (asRoot) await run('chown', ['-R', 'postgres:postgres', dataDir]);
  if (!existsSync(path.join(dataDir, 'PG_VERSION'))) {
    await pg('initdb', ['-D', dataDir, '-U', 'postgres', '--auth=trust', '-E', 'UTF8']);
  }
  const opts = `-p ${port} -c listen_addresses=127.0.0.1 -k ${dataDir}`;
  await pg('pg_ctl', ['-D', dataDir, '-o', opts, '-l', path.join(dataDir, 'server.log'), '-w', 'start']);
  logger.info({ dataDir, port }, 'local PostgreSQL cluster started');
  await waitForConnect(url, 30_000);
  return {
    url,
    stop: async () => void (await pg('pg_ctl', ['-D', dataDir, '-m', 'fast', '-w', 'stop']).catch(() => {})),
  };
}
