import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../../lib/repo-root.ts';
import { type DefaultWorld, startDefaultWorld } from '../helpers/default-world.ts';

/**
 * The SDK as a bot author outside this repository gets it: `npm pack` of the workspace, the archive
 * installed into an empty folder under the system's temporary directory, and programs run from there
 * against a real server: a small bot in ESM and in CommonJS (checked on the server's side: it logged in
 * and moved), and every TypeScript block of docs/agents.md exactly as written (type-checked against the
 * installed declarations, then run), so the documentation cannot rot.
 */

const run = promisify(execFile);
const TSC = path.join(REPO_ROOT, 'node_modules/.bin/tsc');
const TSX = pathToFileURL(createRequire(path.join(REPO_ROOT, 'package.json')).resolve('tsx/esm')).href;
const MCP_SDK_VERSION = (
  JSON.parse(readFileSync(path.join(REPO_ROOT, 'sdk/package.json'), 'utf8')) as {
    dependencies: Record<string, string>;
  }
).dependencies['@modelcontextprotocol/sdk'] as string;

let world: DefaultWorld;
let tmp: string;
let app: string;
const children: ChildProcess[] = [];

beforeAll(async () => {
  tmp = mkdtempSync(path.join(os.tmpdir(), 'hyperscape-sdk-pack-'));
  app = path.join(tmp, 'app');
  const [started] = await Promise.all([
    startDefaultWorld('sdk-package', { TICK_MS: '50' }),
    (async () => {
      await run('npm', ['pack', '--workspace', 'hyperscape-sdk', '--pack-destination', tmp, '--silent'], {
        cwd: REPO_ROOT,
        maxBuffer: 16 * 1024 * 1024,
      });
      const tarball = readdirSync(tmp).find((f) => /^hyperscape-sdk-.*\.tgz$/.test(f));
      if (tarball === undefined) throw new Error(`npm pack wrote no archive into ${tmp}`);
      rmSync(app, { recursive: true, force: true });
      await run('mkdir', ['-p', app]);
      writeFileSync(
        path.join(app, 'package.json'),
        JSON.stringify({ name: 'sdk-consumer', version: '1.0.0', private: true, type: 'module' }),
      );
      // The registry is reached only for what npm's cache lacks (the root install filled it).
      await run(
        'npm',
        [
          'install',
          path.join(tmp, tarball),
          `@modelcontextprotocol/sdk@${MCP_SDK_VERSION}`,
          '--prefer-offline',
          '--no-audit',
          '--no-fund',
          '--ignore-scripts',
          '--silent',
        ],
        { cwd: app, maxBuffer: 16 * 1024 * 1024 },
      );
    })(),
  ]);
  world = started;
}, 300_000);

afterAll(async () => {
  for (const c of children) if (c.exitCode === null) c.kill('SIGKILL');
  await world?.stop();
  if (tmp) rmSync(tmp, { recursive: true, force: true });
});

interface Ran {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs `node <args>` in the app folder; with `until`, stops it (SIGTERM) once its output matches. */
function node(
  args: string[],
  env: Record<string, string>,
  opts: { until?: RegExp; timeoutMs?: number } = {},
) {
  return new Promise<Ran>((resolve) => {
    const child = spawn(process.execPath, args, {
      cwd: app,
      env: { PATH: process.env['PATH'] ?? '', HOME: process.env['HOME'] ?? tmp, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    children.push(child);
    let stdout = '';
    let stderr = '';
    const timer = setTimeout(() => child.kill('SIGKILL'), opts.timeoutMs ?? 60_000);
    child.stdout.on('data', (d: Buffer) => {
      stdout += d.toString();
      if (opts.until?.test(stdout)) child.kill('SIGTERM');
    });
    child.stderr.on('data', (d: Buffer) => {
      stderr += d.toString();
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

async function newCharacter(): Promise<{ token: string; characterId: string }> {
  const { token } = (await (await fetch(`${world.base}/api/auth/anonymous`, { method: 'POST' })).json()) as {
    token: string;
  };
  const res = await fetch(`${world.base}/api/character/create`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ name: `Pkg${Math.floor(Math.random() * 100_000)}` }),
  });
  const { character } = (await res.json()) as { character: { id: string } };
  return { token, characterId: character.id };
}

/** The character's tile as the server saved it. */
async function savedPosition(token: string, characterId: string) {
  const res = await fetch(`${world.base}/api/characters/${characterId}/position`, {
    headers: { authorization: `Bearer ${token}` },
  });
  return ((await res.json()) as { position: { x: number; z: number } }).position;
}

/** A bot that logs in with the given character, walks three tiles east and prints what happened. */
const BOT_BODY = `
  const game = await GameClient.connect({ url: process.env.GAME_WS, token: process.env.GAME_TOKEN, characterId: process.env.GAME_CHARACTER });
  const from = { ...game.world.position };
  const walk = await walkTo(game, { x: from.x + 3, z: from.z });
  console.log(JSON.stringify({ characterId: game.characterId, from, walk: walk.status, at: walk.at }));
  await game.close();
`;

describe('the packed SDK, installed outside the repository', () => {
  it.each([
    ['ESM', 'bot.mjs', `import { GameClient, walkTo } from 'hyperscape-sdk';\n${BOT_BODY}`],
    [
      'CommonJS',
      'bot.cjs',
      `const { GameClient, walkTo } = require('hyperscape-sdk');\nasync function main() {${BOT_BODY}}\nmain().catch((e) => { console.error(e); process.exitCode = 1; });\n`,
    ],
  ])('runs a small bot (%s) that logs in and moves', async (_kind, file, code) => {
    writeFileSync(path.join(app, file), code);
    const { token, characterId } = await newCharacter();
    const before = await savedPosition(token, characterId);
    const ran = await node([file], { GAME_WS: world.wsUrl, GAME_TOKEN: token, GAME_CHARACTER: characterId });
    expect(ran.code, ran.stderr).toBe(0);
    const out = JSON.parse(ran.stdout.trim()) as {
      characterId: string;
      walk: string;
      at: { x: number; z: number };
    };
    expect(out).toMatchObject({ characterId, walk: 'arrived', at: { x: before.x + 3, z: before.z } });
    // The server's own record: the character left the world three tiles east.
    let saved = await savedPosition(token, characterId);
    for (let i = 0; i < 50 && saved.x !== before.x + 3; i++) {
      await new Promise((r) => setTimeout(r, 100));
      saved = await savedPosition(token, characterId);
    }
    expect(saved).toMatchObject({ x: before.x + 3, z: before.z });
  });

  /** What each block of docs/agents.md must show when run; a new block needs its line here. */
  const EXPECTED: Record<string, { output: RegExp; runsUntilStopped?: boolean }> = {
    'bot.ts': { output: /logged in as \S+ at \d+,\d+\nwalk arrived at \d+,\d+/ },
    'agent.ts': {
      output: /agent \S+ plays \S+[\s\S]*(walked to \d+,\d+: arrived|gathering at \S+: stopped)/,
      runsUntilStopped: true,
    },
    'mcp-client.ts': { output: /^You: \S+ at \d+,\d+/m },
  };

  it('runs every TypeScript example of docs/agents.md as written: type-checked, then against the server', async () => {
    const doc = readFileSync(path.join(REPO_ROOT, 'docs/agents.md'), 'utf8');
    const blocks = [...doc.matchAll(/```(ts|js)\n([\s\S]*?)```/g)].map((m) => m[2] as string);
    const files = blocks.map((code) => {
      const name = /^\/\/ file: (\S+)\n/.exec(code)?.[1];
      if (name === undefined) throw new Error(`a code block of docs/agents.md names no file:\n${code}`);
      writeFileSync(path.join(app, name), code);
      return name;
    });
    expect(files.sort()).toEqual(Object.keys(EXPECTED).sort());
    writeFileSync(
      path.join(app, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: {
          target: 'es2022',
          module: 'nodenext',
          moduleResolution: 'nodenext',
          strict: true,
          noEmit: true,
          skipLibCheck: true,
          types: ['node'],
          typeRoots: [path.join(REPO_ROOT, 'node_modules/@types')],
        },
        files: files.filter((f) => f.endsWith('.ts')),
      }),
    );
    const checked = await run(TSC, ['-p', app]).then(
      () => '',
      (e: { stdout?: string }) => e.stdout ?? String(e),
    );
    expect(checked).toBe('');
    const env = { GAME_WS: world.wsUrl, GAME_SERVER: world.base };
    for (const file of files) {
      const want = EXPECTED[file] as (typeof EXPECTED)[string];
      const ran = await node(['--import', TSX, file], env, {
        ...(want.runsUntilStopped ? { until: want.output } : {}),
        timeoutMs: 90_000,
      });
      expect(ran.stdout, `${file}:\n${ran.stderr}`).toMatch(want.output);
      if (!want.runsUntilStopped) expect(ran.code, `${file}:\n${ran.stderr}`).toBe(0);
      expect(ran.stderr, file).not.toMatch(/Error|TypeError/);
    }
  }, 240_000);
});
