import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { decodeJwt, decodeProtectedHeader } from 'jose';
import { TokenVerifier } from 'livekit-server-sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../../lib/logger.ts';
import { serverEvents } from '../../net/protocol/server-events.ts';
import { MAP_CHUNK_SIZE } from '../../net/routes/map.ts';
import { VOICE_TOKEN_TTL_SECONDS, voiceRoutes } from '../../net/routes/voice.ts';
import { REPO_ROOT } from '../../src/server.ts';
import { startWorldServer, type WorldServer } from '../../src/world-server.ts';
import { problemOf } from '../helpers/http.ts';
import { startTestServer, testConfig } from '../helpers/server.ts';
import { TestWsClient } from '../helpers/ws-client.ts';

/**
 * Voice tokens and the map routes over the real server (default content: the starter town emberfold
 * spans 560..640 on both axes, ashwood 650..780 x 540..680). Tokens are checked with LiveKit's own
 * verifier. The disabled mode is checked on a bare server carrying only the voice route.
 */

const KEY = 'APIvoicetestkey';
const SECRET = 'voice-test-secret-0123456789-abcdefghijklmnop';
const VOICE_URL = 'wss://voice.example.test';
let worldDir: string;
let world: string;
let srv: WorldServer;
let base: string;
const clients: TestWsClient[] = [];

beforeAll(async () => {
  worldDir = mkdtempSync(path.join(os.tmpdir(), 'voice-world-'));
  world = path.basename(worldDir);
  const config = testConfig({
    WORLD: worldDir,
    TICK_MS: '50',
    JWT_SECRET: 'integration-test-secret-0123456789-abcdefghij',
    ADMIN_CODE: 'voice-admin-code',
    DISABLE_RATE_LIMIT: 'true',
    VOICE_API_KEY: KEY,
    VOICE_API_SECRET: SECRET,
    VOICE_URL,
  });
  srv = await startWorldServer(config, createLogger(config), {
    manifestsDir: path.join(REPO_ROOT, 'world', 'assets', 'manifests'),
    publicDir: '/nonexistent/public',
  });
  base = `http://127.0.0.1:${srv.port}`;
});

afterAll(async () => {
  for (const c of clients) c.close();
  await srv?.stop();
  rmSync(worldDir, { recursive: true, force: true });
});

async function enter(name: string) {
  const client = await TestWsClient.connect(`ws://127.0.0.1:${srv.port}/ws`, { encoding: 'json' });
  clients.push(client);
  client.send('authenticate', { name });
  const auth = await client.next('authResult', 15_000);
  expect(auth.payload.success).toBe(true);
  const sync = await client.next('player:sync', 5000);
  expect(serverEvents['player:sync'].parse(sync.payload)).toEqual(sync.payload);
  return {
    client,
    id: auth.payload.characterId as string,
    token: auth.payload.sessionToken as string,
    sync: sync.payload,
  };
}

const voiceToken = (bearer: string | null, query = '') =>
  fetch(`${base}/api/voice/token${query}`, {
    headers: bearer === null ? {} : { authorization: `Bearer ${bearer}` },
  });

describe('voice tokens (configured)', () => {
  it('player:sync says voice is on, and the token is LiveKit-valid for the area room, the character and 6 h', async () => {
    const me = await enter('Speaker');
    expect(me.sync.voice).toEqual({ enabled: true });
    const res = await voiceToken(me.token);
    expect(res.status).toBe(200);
    const body = (await res.json()) as { url: string; token: string; room: string; identity: string };
    expect(body).toEqual({
      url: VOICE_URL,
      token: expect.any(String),
      room: `${world}-emberfold`,
      identity: me.id,
    });

    const grants = await new TokenVerifier(KEY, SECRET).verify(body.token);
    expect(grants.video).toEqual({
      roomJoin: true,
      room: `${world}-emberfold`,
      canPublish: true,
      canSubscribe: true,
    });
    expect(grants.name).toBe('Speaker');
    expect(decodeProtectedHeader(body.token).alg).toBe('HS256');
    const claims = decodeJwt(body.token);
    expect(claims.iss).toBe(KEY);
    expect(claims.sub).toBe(me.id);
    expect((claims.exp as number) - (claims.nbf as number)).toBeLessThanOrEqual(VOICE_TOKEN_TTL_SECONDS);
    expect((claims.exp as number) * 1000).toBeGreaterThan(Date.now());
    // Signed with the secret: another secret does not verify it.
    await expect(new TokenVerifier(KEY, `${SECRET}-other`).verify(body.token)).rejects.toThrow();
  });

  it('needs a bearer token, refuses the character of another account, and asks for a character in the world', async () => {
    const me = await enter('Owner');
    expect((await voiceToken(null)).status).toBe(401);
    const anon = await fetch(`${base}/api/auth/anonymous`, { method: 'POST' });
    const stranger = ((await anon.json()) as { token: string }).token;
    const foreign = await voiceToken(stranger, `?characterId=${me.id}`);
    expect(foreign.status).toBe(403);
    const none = await voiceToken(stranger);
    expect(none.status).toBe(409);
    expect((await problemOf(none)).code).toBe('CONFLICT');
  });

  it('walking into another area sends voice:room; the next token is for that room', async () => {
    const me = await enter('Walker');
    me.client.send('player:chat', { message: '/admin voice-admin-code' });
    await me.client.next('chat:message', 5000);
    me.client.send('player:chat', { message: '/tp 700 600' });
    const moved = await me.client.next('voice:room', 5000);
    expect(moved.payload).toEqual({ room: `${world}-ashwood` });
    const body = (await (await voiceToken(me.token)).json()) as { room: string; token: string };
    expect(body.room).toBe(`${world}-ashwood`);
    expect((await new TokenVerifier(KEY, SECRET).verify(body.token)).video?.room).toBe(`${world}-ashwood`);
  });
});

describe('voice disabled', () => {
  it('GET /api/voice/token answers 503 VOICE_DISABLED', async () => {
    const config = testConfig({});
    expect(config.voice.enabled).toBe(false);
    const bare = await startTestServer(
      {},
      {
        routes: voiceRoutes({
          voice: config.voice,
          characters: { list: async () => [], require: async () => Promise.reject(new Error('unused')) },
          live: { liveCharacter: () => null },
          areas: [],
        }),
        verifyBearer: async () => ({ accountId: 'acc', anonymous: true }),
      },
    );
    try {
      const res = await fetch(`${bare.url}/api/voice/token`, { headers: { authorization: 'Bearer x' } });
      expect(res.status).toBe(503);
      expect(await problemOf(res)).toMatchObject({ status: 503, code: 'VOICE_DISABLED' });
    } finally {
      await bare.stop();
    }
  });
});

describe('map routes', () => {
  it('GET /api/map describes the map, a chunk has the server tiles, outside is 404', async () => {
    const res = await fetch(`${base}/api/map`);
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('public, max-age=300');
    const map = (await res.json()) as {
      chunkSize: number;
      spawn: { x: number; z: number };
      chunks: { minCx: number; maxCx: number; minCz: number; maxCz: number };
      areas: { id: string; minX: number }[];
      width: number;
    };
    expect(map.chunkSize).toBe(MAP_CHUNK_SIZE);
    expect(map.width).toBeGreaterThanOrEqual(1000);
    expect(map.areas.map((a) => a.id)).toEqual(expect.arrayContaining(['emberfold', 'ashwood']));
    const cx = Math.floor(map.spawn.x / map.chunkSize);
    const cz = Math.floor(map.spawn.z / map.chunkSize);
    const chunk = (await (await fetch(`${base}/api/map/chunk/${cx}/${cz}`)).json()) as {
      x: number;
      z: number;
      size: number;
      tiles: string;
    };
    expect(chunk.size).toBe(MAP_CHUNK_SIZE);
    expect(chunk.tiles).toMatch(/^[01]+$/);
    expect(chunk.tiles).toHaveLength(MAP_CHUNK_SIZE * MAP_CHUNK_SIZE);
    const at = (x: number, z: number) => chunk.tiles[(z - chunk.z) * chunk.size + (x - chunk.x)];
    expect(at(map.spawn.x, map.spawn.z)).toBe('0');
    // Every tile of the chunk is the server's own walkability, and the chunk holds blocked tiles too.
    const { map: tiles } = srv.runtime.world.content;
    let blocked = 0;
    for (let dz = 0; dz < chunk.size; dz++) {
      for (let dx = 0; dx < chunk.size; dx++) {
        const walkable = tiles.isWalkable(chunk.x + dx, chunk.z + dz);
        if (!walkable) blocked++;
        expect(at(chunk.x + dx, chunk.z + dz)).toBe(walkable ? '0' : '1');
      }
    }
    expect(blocked).toBeGreaterThan(0);
    const outside = await fetch(`${base}/api/map/chunk/${map.chunks.maxCx + 1}/${cz}`);
    expect(outside.status).toBe(404);
    expect((await problemOf(outside)).code).toBe('NOT_FOUND');
    expect((await fetch(`${base}/api/map/chunk/x/${cz}`)).status).toBe(404);
  });

  it('GET /api/map carries what a client draws: biomes, buildings, water and walking paths', async () => {
    const map = (await (await fetch(`${base}/api/map`)).json()) as {
      areas: { id: string; biome: string; terrain: string | null; safeZone: boolean }[];
      buildings: { id: string; x: number; z: number; width: number; depth: number; door: unknown }[];
      water: { x: number; z: number; radius: number }[];
      paths: [number, number, number][];
    };
    expect(map.areas.find((a) => a.id === 'emberfold')).toMatchObject({
      biome: 'town',
      terrain: 'plains',
      safeZone: true,
    });
    expect(map.areas.find((a) => a.id === 'ashwood')).toMatchObject({ biome: 'woodland', terrain: 'forest' });
    expect(map.buildings.map((b) => b.id)).toEqual(
      expect.arrayContaining(['emberfold_vault', 'bertrand_forge', 'warden_house']),
    );
    // The fishing spots of the world stand in water.
    const { world } = srv.runtime;
    const spots = world.content.resourceSpawns.filter((r) => r.resourceId.startsWith('spot_'));
    for (const s of spots) expect(map.water).toContainEqual(expect.objectContaining({ x: s.x, z: s.z }));
    // Paths run over walkable tiles of the server's own map.
    expect(map.paths.length).toBeGreaterThan(0);
    for (const [z, from, to] of map.paths)
      for (let x = from; x <= to; x++) expect(world.content.map.isWalkable(x, z)).toBe(true);
  });
});
