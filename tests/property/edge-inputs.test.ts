import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_JSON_DEPTH } from '../../lib/json-limits.ts';
import { DEFAULT_MAX_BODY_BYTES } from '../../net/http/pipeline.ts';
import type { RouteDef } from '../../net/http/types.ts';
import { clientEvents } from '../../net/protocol/client-events.ts';
import { decodeClientFrame, MAX_FRAME_BYTES } from '../../net/protocol/codec.ts';
import { type DefaultWorld, startDefaultWorld } from '../helpers/default-world.ts';
import {
  type Hostile,
  hostileArb,
  hostileJson,
  hostileMsgpack,
  inField,
  jsonFrame,
  msgpackFrame,
} from '../helpers/hostile-json.ts';
import { jsonOf } from '../helpers/http.ts';
import { api } from '../helpers/identity-server.ts';
import { TestWsClient } from '../helpers/ws-client.ts';

/**
 * Issue 26: every HTTP route the router serves and every client event of the protocol, each fed
 * generated deep, wide and long values. A value nested past the limit is refused at the edge (400 or
 * BAD_MESSAGE, naming the limit) wherever it is sent; a body over the size limit is 413; nothing else
 * is ever answered 5xx, no connection is closed, and the server keeps answering. Routes come from the
 * running router and events from the protocol's table: a new one is covered without touching this file.
 * About 300 HTTP and 300 WebSocket cases, bounded.
 */

const TOO_DEEP = `nested more than ${MAX_JSON_DEPTH} levels deep`;
const BODY_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
const RUNS_PER_ROUTE = 8;
const RUNS_PER_EVENT = 8;
/** What decodeClientFrame says when it refuses a frame (net/protocol/codec.ts). */
const CODEC_MESSAGE =
  /^(frame is |a message is an array|unknown event |payload must be an object|invalid payload: )/;

let world: DefaultWorld;
let token: string;
let ids: Record<string, string>;

beforeAll(async () => {
  // Voice configured, so its route answers as it would in production rather than 503 VOICE_DISABLED.
  world = await startDefaultWorld('edge-inputs', {
    VOICE_API_KEY: 'edge-key',
    VOICE_API_SECRET: 'edge-voice-secret-0123456789-abcdefgh',
    VOICE_URL: 'ws://127.0.0.1:7880',
  });
  ({ token } = await jsonOf(await api(world.base, 'POST', '/api/auth/anonymous')));
  const created = await api(world.base, 'POST', '/api/character/create', {
    token,
    body: { name: 'EdgeProp' },
  });
  const characterId = (await jsonOf(created)).character.id as string;
  const agent = await jsonOf(await api(world.base, 'POST', '/api/agents', { token, body: { characterId } }));
  // Path parameters get real ids, so a request reaches as far into its route as a real one would.
  ids = { characterId, agentId: agent.agentId, templateId: 'default', cx: '0', cz: '0', '*': 'items.json' };
});

afterAll(async () => {
  await world?.stop();
});

/** For bodies, also longer than any route takes (413). */
const httpHostile: fc.Arbitrary<Hostile> = fc.oneof(
  { weight: 5, arbitrary: hostileArb },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant('long' as const),
      length: fc.integer({ min: 65_000, max: 90_000 }),
    }),
  },
);

function pathOf(route: RouteDef): string {
  return route.path
    .split('/')
    .map((seg) =>
      seg === '*' ? ids['*'] : seg.startsWith(':') ? encodeURIComponent(ids[seg.slice(1)] ?? 'x') : seg,
    )
    .join('/');
}

describe('every HTTP route, fed deep, wide and long values', () => {
  it('refuses what is past a limit (400 naming the depth, 413 for size); never 5xx; the server lives', async () => {
    const routes = world.srv.server.routes;
    expect(routes.length).toBeGreaterThan(30);
    for (const route of routes) {
      const withBody = BODY_METHODS.has(route.method);
      const limit = route.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
      await fc.assert(
        fc.asyncProperty(
          httpHostile,
          fc.constantFrom<string | null>(null, 'name', 'params', 'x'),
          async (h, field) => {
            const raw = inField(field, hostileJson(h));
            const url = withBody
              ? `${world.base}${pathOf(route)}`
              : // GET and HEAD routes take no body: the value goes in the query string instead (capped
                // with the rest of the head at 4 KiB, so long ones are 431).
                `${world.base}${pathOf(route)}?q=${encodeURIComponent(raw.slice(0, 6000))}`;
            const res = await fetch(url, {
              method: route.method,
              headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
              ...(withBody ? { body: raw } : {}),
            });
            const text = await res.text();
            const what = `${route.method} ${route.path} ${h.kind} ${JSON.stringify({ ...h, field })}`;
            expect(res.status, `${what}: ${text.slice(0, 200)}`).toBeLessThan(500);
            if (withBody && Buffer.byteLength(raw) > limit) expect(res.status, what).toBe(413);
            else if (withBody && h.kind === 'deep') {
              expect(res.status, what).toBe(400);
              expect(JSON.parse(text).detail, what).toBe(`The request body is ${TOO_DEEP}`);
            }
          },
        ),
        { numRuns: RUNS_PER_ROUTE },
      );
    }
    expect((await fetch(`${world.base}/health`)).status).toBe(200);
  }, 120_000);
});

describe('every client event, fed deep, wide and long values in both encodings', () => {
  it('answers BAD_MESSAGE naming the limit for deep ones and whenever the codec refuses; no close', async () => {
    const sockets = [] as TestWsClient[];
    for (const encoding of ['json', 'msgpack'] as const) {
      const { token: t2 } = await jsonOf(await api(world.base, 'POST', '/api/auth/anonymous'));
      const c = await TestWsClient.connect(world.wsUrl, { encoding });
      c.send('authenticate', { authToken: t2, name: `EdgeWs${encoding === 'json' ? 'J' : 'M'}` });
      expect((await c.next('authResult', 15_000)).payload.success).toBe(true);
      sockets.push(c);
    }
    let probe = 0;
    // `player:logout` takes any object and ends the session with 1000 by design (ws-logout.test.ts);
    // the codec's refusals it shares with every other event are covered by them.
    for (const event of Object.keys(clientEvents).filter((e) => e !== 'player:logout')) {
      await fc.assert(
        fc.asyncProperty(
          hostileArb,
          fc.constantFrom<string | null>(null, 'message', 'x', 'targetId'),
          fc.constantFrom(0, 1),
          async (h: Hostile, field, which) => {
            const c = sockets[which] as TestWsClient;
            const binary = c.encoding === 'msgpack';
            const frame = binary
              ? msgpackFrame(event, field, hostileMsgpack(h))
              : jsonFrame(event, field, hostileJson(h));
            const bytes = typeof frame === 'string' ? Buffer.from(frame) : frame;
            const verdict = decodeClientFrame(bytes, binary);
            expect(bytes.byteLength).toBeLessThanOrEqual(MAX_FRAME_BYTES); // past it: close 1009, tested elsewhere
            // A probe after it: an unknown event, always BAD_MESSAGE, answered in order on the network thread.
            const name = `probe:${++probe}`;
            c.sendRaw(frame);
            c.send(name, {});
            const refusals: { message: string; event: string | null }[] = [];
            for (;;) {
              const m = await c.next('error', 10_000);
              if (m.payload.event === name) break;
              // The codec's refusals come from the network thread, in order with the probe's; the game's
              // answers to frames it accepted (any code, BAD_MESSAGE included) come from the main thread
              // whenever it gets to them, and are not what is checked here.
              if (m.payload.code === 'BAD_MESSAGE' && CODEC_MESSAGE.test(m.payload.message)) {
                refusals.push({ message: m.payload.message, event: m.payload.event });
              }
            }
            const what = `${event} ${JSON.stringify({ ...h, field })} ${c.encoding}`;
            if (h.kind === 'deep')
              expect(refusals, what).toEqual([{ message: `frame is ${TOO_DEEP}`, event }]);
            else if (!verdict.ok) expect(refusals, what).toEqual([{ message: verdict.message, event }]);
            else expect(refusals, what).toEqual([]);
            expect(c.closeCode, what).toBeUndefined();
          },
        ),
        { numRuns: RUNS_PER_EVENT },
      );
    }
    for (const c of sockets) {
      expect(c.closeCode).toBeUndefined();
      c.close();
    }
    expect((await fetch(`${world.base}/health`)).status).toBe(200);
  }, 120_000);
});
