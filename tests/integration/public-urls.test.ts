import net from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { type DefaultWorld, startDefaultWorld } from '../helpers/default-world.ts';

/**
 * Issue 26: GET /api/worlds advertised ws://localhost:5555/ws whatever PORT was. Without PUBLIC_WS_URL
 * and PUBLIC_API_URL the addresses the server gives out (the world list, /env.js) follow PORT, and with
 * PORT=0 the port it got.
 */

let world: DefaultWorld | undefined;
afterEach(async () => {
  await world?.stop();
  world = undefined;
});

/** A port nothing listens on right now. */
async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

async function advertised(w: DefaultWorld): Promise<{ worlds: string[]; env: Record<string, string> }> {
  const list = (await (await fetch(`${w.base}/api/worlds`)).json()) as { worlds: { address: string }[] };
  const script = await (await fetch(`${w.base}/env.js`)).text();
  const env = JSON.parse(/^window\.env = (\{.*\});\n$/s.exec(script)?.[1] ?? 'null') as Record<
    string,
    string
  >;
  return { worlds: list.worlds.map((x) => x.address), env };
}

describe('public URLs follow PORT unless set', () => {
  it('a PORT other than 5555: /api/worlds and /env.js name it', async () => {
    const port = await freePort();
    world = await startDefaultWorld('public-urls', { PORT: String(port) });
    expect(world.srv.port).toBe(port);
    const { worlds, env } = await advertised(world);
    expect(worlds).toEqual([`ws://localhost:${port}/ws`]);
    expect(env).toMatchObject({
      PUBLIC_API_URL: `http://localhost:${port}`,
      PUBLIC_WS_URL: `ws://localhost:${port}/ws`,
    });
  }, 60_000);

  it('PORT=0: the port the server got', async () => {
    world = await startDefaultWorld('public-urls');
    const port = world.srv.port;
    expect(port).toBeGreaterThan(0);
    const { worlds, env } = await advertised(world);
    expect(worlds).toEqual([`ws://localhost:${port}/ws`]);
    expect(env).toMatchObject({
      PUBLIC_API_URL: `http://localhost:${port}`,
      PUBLIC_WS_URL: `ws://localhost:${port}/ws`,
    });
  }, 60_000);

  it('set explicitly, they are given out as set', async () => {
    world = await startDefaultWorld('public-urls', {
      PUBLIC_WS_URL: 'wss://w1.example.com/ws',
      PUBLIC_API_URL: 'https://api.example.com',
    });
    const { worlds, env } = await advertised(world);
    expect(worlds).toEqual(['wss://w1.example.com/ws']);
    expect(env).toMatchObject({
      PUBLIC_API_URL: 'https://api.example.com',
      PUBLIC_WS_URL: 'wss://w1.example.com/ws',
    });
  }, 60_000);
});
