import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { CharacterState } from '../../ecs/core/character-state.ts';
import type { Command } from '../../ecs/core/commands.ts';
import { createLogger } from '../../lib/logger.ts';
import { createServerMetrics } from '../../lib/metrics.ts';
import { HttpRateLimits } from '../../net/http/rate-limit.ts';
import type { LiveWorld } from '../../net/routes/world.ts';
import type { WorldGate } from '../../net/session/ws-app.ts';
import { type OpenedPersistence, startPersistence } from '../../persistence/open.ts';
import type { SqlClient } from '../../persistence/sql.ts';
import { createIdentity, type Identity, type IdentityContent, identityContent } from '../../src/identity.ts';
import { REPO_ROOT } from '../../src/server.ts';
import { loadContent } from '../../world/loader.ts';
import { toSimContent } from '../../world/sim-content.ts';
import { pgliteTestDb, type TestDb } from './db.ts';
import { startTestServer, type TestServer, testConfig } from './server.ts';

/**
 * The real server with the identity part wired in, over real persistence (PGlite in a temp dir) and the
 * project's default content. The world runtime is a small fake (FakeWorld) that records the commands it
 * is given and answers leaveAndSave with a real logout save.
 */

export const TEST_JWT_SECRET = 'integration-test-secret-0123456789-abcdefghij';

/** WorldGate + LiveWorld without a simulation: joined characters are "in the world" until they leave. */
export class FakeWorld implements WorldGate, LiveWorld {
  readonly commands: Command[] = [];
  readonly inWorld = new Map<string, CharacterState>();
  /** Every leaveAndSave call, in order, with the moment its save finished. */
  readonly leaves: { characterId: string; reason: string; savedAt: number }[] = [];
  tick = 0;
  /** Makes the next leaveAndSave reject after removing the character (a save that failed). */
  failNextLeave = false;
  saves: OpenedPersistence['saves'] | undefined;

  enqueue(cmd: Command): void {
    this.commands.push(cmd);
    if (cmd.type === 'join') {
      if (this.inWorld.has(cmd.characterId)) throw new Error(`character ${cmd.characterId} joined twice`);
      this.inWorld.set(cmd.characterId, structuredClone(cmd.state));
    }
  }

  /** Never full: the bound of the real queue is tested against the real runtime. */
  offer(cmd: Command): boolean {
    this.enqueue(cmd);
    return true;
  }

  isInWorld(characterId: string): boolean {
    return this.inWorld.has(characterId);
  }

  async leaveAndSave(characterId: string, reason: 'logout' | 'disconnect' | 'takeover'): Promise<void> {
    this.commands.push({ type: 'leave', characterId, reason });
    const state = this.inWorld.get(characterId);
    this.inWorld.delete(characterId);
    if (this.failNextLeave) {
      this.failNextLeave = false;
      throw new Error('simulated save failure');
    }
    if (state !== undefined) await this.saves?.logout(state);
    this.leaves.push({ characterId, reason, savedAt: performance.now() });
  }

  summary() {
    return {
      tick: this.tick,
      playersOnline: this.inWorld.size,
      entities: { player: this.inWorld.size, npc: 7 },
    };
  }

  liveCharacter(characterId: string): CharacterState | null {
    return this.inWorld.get(characterId) ?? null;
  }

  commandsOf(characterId: string): Command[] {
    return this.commands.filter((c) => c.characterId === characterId);
  }
}

export interface IdentityTestServer extends TestServer {
  identity: Identity;
  world: FakeWorld;
  persistence: OpenedPersistence;
  /** Direct SQL on the same database (e.g. to ban an account). */
  db: SqlClient;
  content: IdentityContent;
}

let contentCache: Promise<IdentityContent> | undefined;
/** The project's default content (world/assets/manifests), loaded once per test file. */
export function defaultContent(): Promise<IdentityContent> {
  contentCache ??= loadContent(path.join(REPO_ROOT, 'world', 'assets', 'manifests')).then((r) =>
    identityContent(r, toSimContent(r)),
  );
  return contentCache;
}

export async function startIdentityServer(
  env: Record<string, string | undefined> = {},
): Promise<IdentityTestServer> {
  const worldDir = mkdtempSync(path.join(os.tmpdir(), 'identity-world-'));
  const fullEnv = { WORLD: worldDir, JWT_SECRET: TEST_JWT_SECRET, ADMIN_CODE: 'test-admin-code', ...env };
  const config = testConfig(fullEnv);
  const logger = createLogger(config);
  const testDb: TestDb = pgliteTestDb();
  const db = await testDb.connect();
  const persistence = await startPersistence(db, logger, 60_000);
  const world = new FakeWorld();
  world.saves = persistence.saves;
  const rateLimits = new HttpRateLimits(config.rateLimit.disabled);
  const content = await defaultContent();
  const metrics = createServerMetrics();
  const identity = await createIdentity({
    config,
    logger,
    port: persistence.port,
    saves: persistence.saves,
    content,
    world,
    live: world,
    // The fake world has no presence: a friend is online in world 1 when it is in this one.
    onlineWorld: (id) => (world.isInWorld(id) ? 1 : undefined),
    limiter: rateLimits,
    metrics,
  });
  const server = await startTestServer(fullEnv, {
    routes: identity.routes,
    ws: identity.ws,
    verifyBearer: identity.verifyBearer,
    rateLimits,
    logger,
    metrics,
  });
  return {
    ...server,
    identity,
    world,
    persistence,
    db,
    content,
    stop: async () => {
      await server.stop();
      await identity.ws.idle();
      await persistence.close();
      await testDb.destroy();
      rmSync(worldDir, { recursive: true, force: true });
    },
  };
}

/** fetch against the test server with an optional bearer token and JSON body. */
export function api(
  base: string,
  method: string,
  pathname: string,
  opts: { token?: string; body?: unknown } = {},
): Promise<Response> {
  const headers: Record<string, string> = {};
  if (opts.token !== undefined) headers['authorization'] = `Bearer ${opts.token}`;
  if (opts.body !== undefined) headers['content-type'] = 'application/json';
  return fetch(`${base}${pathname}`, {
    method,
    headers,
    ...(opts.body !== undefined ? { body: JSON.stringify(opts.body) } : {}),
  });
}

/**
 * Asserts that an inventory holds exactly a template's kit: the same total per item id, and
 * non-stackable items one per slot (a template's `quantity: 3` of bread is three slots).
 */
export function kitProblems(
  inventory: readonly ({ itemId: string; quantity: number } | null)[],
  template: { inventory: readonly { itemId: string; quantity: number }[] },
  content: IdentityContent,
): string[] {
  const problems: string[] = [];
  const totals = new Map<string, number>();
  for (const s of inventory) {
    if (s === null) continue;
    totals.set(s.itemId, (totals.get(s.itemId) ?? 0) + s.quantity);
    if (!content.items.get(s.itemId)?.stackable && s.quantity !== 1) {
      problems.push(`non-stackable ${s.itemId} has quantity ${s.quantity} in one slot`);
    }
  }
  const wanted = new Map<string, number>();
  for (const s of template.inventory) wanted.set(s.itemId, (wanted.get(s.itemId) ?? 0) + s.quantity);
  for (const [id, n] of wanted)
    if (totals.get(id) !== n) problems.push(`${id}: ${totals.get(id) ?? 0} != ${n}`);
  for (const id of totals.keys()) if (!wanted.has(id)) problems.push(`unexpected ${id}`);
  return problems;
}
