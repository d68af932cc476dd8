import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GameSession } from '../../sdk/src/mcp/index.ts';
import { type DefaultWorld, startDefaultWorld } from '../helpers/default-world.ts';

/**
 * Many MCP agents starting together on one machine, with the rate limits on: each session reads the
 * public content routes (17 requests at start, then map chunks) with its session token, so they count
 * in each token's REST budget, not in the address's 100 a minute: every session gets the whole content,
 * and the address keeps its budget.
 */

const SESSIONS = 8;
let world: DefaultWorld;
const sessions: GameSession[] = [];

beforeAll(async () => {
  world = await startDefaultWorld('mcp-rate-budget', { TICK_MS: '50', DISABLE_RATE_LIMIT: 'false' });
});

afterAll(async () => {
  for (const s of sessions) await s.close().catch(() => {});
  await world?.stop();
});

describe('MCP sessions on one address', () => {
  it(`${SESSIONS} sessions starting together all read the whole content; the address's budget is untouched`, async () => {
    sessions.push(
      ...(await Promise.all(Array.from({ length: SESSIONS }, () => GameSession.open({ url: world.wsUrl })))),
    );
    for (const s of sessions) {
      expect(s.content.items.size).toBeGreaterThan(20);
      expect(s.content.npcs.size).toBeGreaterThan(0);
      expect(s.content.resources.size).toBeGreaterThan(0);
      expect(s.content.areas.length).toBeGreaterThan(0);
      // The tiles come from the map chunks, read with the token too.
      const here = s.game.world.position!;
      expect(await s.tiles.walkable(here.x, here.z)).toBe(true);
    }
    const res = await fetch(`${world.base}/api/map`);
    expect(res.status).toBe(200);
    expect(res.headers.get('ratelimit-remaining')).toBe('99');
  });
});
