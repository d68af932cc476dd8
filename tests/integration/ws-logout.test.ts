import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type DefaultWorld, startDefaultWorld } from '../helpers/default-world.ts';
import { TestWsClient } from '../helpers/ws-client.ts';

/**
 * `player:logout` over a real socket: the character leaves the world, is saved, and the server closes the
 * socket with 1000; a friend sees it go offline; logging in again finds it where it was.
 */

let w: DefaultWorld;
const clients: TestWsClient[] = [];

beforeAll(async () => {
  w = await startDefaultWorld('ws-logout');
});
afterAll(async () => {
  for (const c of clients) c.close();
  await w?.stop();
});

async function enter(auth: Record<string, string>) {
  const client = await TestWsClient.connect(w.wsUrl, { encoding: 'json' });
  clients.push(client);
  client.send('authenticate', auth);
  const res = await client.next('authResult', 15_000);
  expect(res.payload.success).toBe(true);
  const sync = await client.next('player:sync', 5000);
  return {
    client,
    id: res.payload.characterId as string,
    token: res.payload.sessionToken as string,
    at: sync.payload.position as { x: number; z: number },
  };
}

describe('player:logout', () => {
  it('leaves the world saved, closes with 1000, and the next login finds the character as it left', async () => {
    const leaver = await enter({ name: 'Leaver' });
    const { world } = w.srv.runtime;
    expect(world.players.has(leaver.id)).toBe(true);

    // Walk a few tiles so there is something new to save.
    const to = { x: leaver.at.x + 2, z: leaver.at.z };
    leaver.client.send('player:move', to);
    await expect
      .poll(() => {
        const self = world.players.get(leaver.id);
        return self && { x: world.c.Position.x[self.eid], z: world.c.Position.z[self.eid] };
      })
      .toEqual(to);

    leaver.client.send('player:logout', {});
    expect(await leaver.client.waitClose(10_000)).toBe(1000);
    expect(world.players.has(leaver.id)).toBe(false);

    const back = await enter({ authToken: leaver.token });
    expect(back.id).toBe(leaver.id);
    expect(back.at).toMatchObject(to);
  });

  it('a friend sees the one who logs out go offline; nothing sent after it reaches the world', async () => {
    const a = await enter({ name: 'Stayer' });
    const b = await enter({ name: 'Goer' });
    a.client.send('friend:request', { name: 'Goer' });
    const req = await b.client.next('friend:requestReceived', 5000);
    b.client.send('friend:respond', { requestId: req.payload.requestId, accept: true });
    for (;;) {
      const list = await a.client.next('social:list', 5000);
      const f = (list.payload.friends as { name: string; online: boolean }[]).find((v) => v.name === 'Goer');
      if (f?.online) break;
    }
    b.client.send('player:logout', {});
    b.client.send('player:chat', { message: 'too late' });
    const presence = await a.client.next('friend:presence', 5000);
    expect(presence.payload).toMatchObject({ name: 'Goer', online: false });
    expect(await b.client.waitClose(10_000)).toBe(1000);
    // The line sent after the logout was never heard.
    const heard = await a.client.next('chat:message', 1000).catch(() => null);
    expect(heard).toBeNull();
  });
});
