import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Announcement, CharacterMessage, MessagingPort, Presence } from '../../net/messaging/port.ts';

/**
 * The messaging port's contract: any implementation (the local one now, a networked one later) runs
 * this suite through its own test file with a factory of fresh, isolated instances.
 */
export function messagingContract(make: () => MessagingPort | Promise<MessagingPort>): void {
  let port: MessagingPort;
  beforeEach(async () => {
    port = await make();
  });
  afterEach(async () => {
    await port.close();
  });

  const pm = (message: string): CharacterMessage => ({
    kind: 'privateMessage',
    fromId: 'from-1',
    fromName: 'Sender',
    message,
    timestamp: 1_700_000_000_000,
  });
  const texts = (got: CharacterMessage[]) =>
    got.map((m) => (m.kind === 'privateMessage' ? m.message : m.kind));

  describe('publish and subscribe', () => {
    it('a message reaches the subscribers of its character only, after publish returns', async () => {
      const a: CharacterMessage[] = [];
      const b: CharacterMessage[] = [];
      port.subscribe('char-a', (m) => a.push(m));
      port.subscribe('char-b', (m) => b.push(m));
      port.publish('char-a', pm('hello'));
      expect(a).toEqual([]); // never inside publish
      await port.flush();
      expect(a).toEqual([pm('hello')]);
      expect(b).toEqual([]);
    });

    it('keeps publish order per character', async () => {
      const got: CharacterMessage[] = [];
      port.subscribe('char-a', (m) => got.push(m));
      for (let i = 0; i < 50; i++) port.publish('char-a', pm(`m${i}`));
      await port.flush();
      expect(texts(got)).toEqual(Array.from({ length: 50 }, (_, i) => `m${i}`));
    });

    it('drops what nobody subscribes for; unsubscribe stops delivery; a new subscription gets what follows', async () => {
      port.publish('char-a', pm('nobody'));
      const first: CharacterMessage[] = [];
      const sub = port.subscribe('char-a', (m) => first.push(m));
      await port.flush();
      expect(first).toEqual([]);
      port.publish('char-a', pm('one'));
      await port.flush();
      sub.unsubscribe();
      port.publish('char-a', pm('gone'));
      await port.flush();
      const second: CharacterMessage[] = [];
      port.subscribe('char-a', (m) => second.push(m));
      port.publish('char-a', pm('two'));
      await port.flush();
      expect(texts(first)).toEqual(['one']);
      expect(texts(second)).toEqual(['two']);
    });

    it('each handler gets its own copy of plain data', async () => {
      const update: CharacterMessage = {
        kind: 'socialUpdate',
        lists: { friends: [{ id: 'x', name: 'X' }], ignored: [], requests: [], outgoing: [] },
        received: { requestId: 'x>char-a', fromId: 'x', fromName: 'X' },
      };
      const got: CharacterMessage[] = [];
      port.subscribe('char-a', (m) => {
        got.push(m);
        if (m.kind === 'socialUpdate') m.lists.friends.length = 0;
      });
      port.subscribe('char-a', (m) => got.push(m));
      port.publish('char-a', update);
      if (update.kind === 'socialUpdate') update.lists.ignored.push({ id: 'y', name: 'Y' });
      await port.flush();
      expect(got).toHaveLength(2);
      expect(got[1]).toEqual({
        ...update,
        lists: { friends: [{ id: 'x', name: 'X' }], ignored: [], requests: [], outgoing: [] },
      });
    });

    it('a failing handler does not stop delivery to the others', async () => {
      const got: CharacterMessage[] = [];
      port.subscribe('char-a', () => {
        throw new Error('handler failed');
      });
      port.subscribe('char-a', (m) => got.push(m));
      port.publish('char-a', pm('still'));
      port.publish('char-a', pm('and this'));
      await port.flush();
      expect(texts(got)).toEqual(['still', 'and this']);
    });
  });

  describe('presence', () => {
    it('every listener hears each change in order, the publisher included; unsubscribed ones do not', async () => {
      const one: Presence[] = [];
      const two: Presence[] = [];
      port.onPresence((p) => one.push(p));
      const sub = port.onPresence((p) => two.push(p));
      port.presenceChanged({ characterId: 'char-a', name: 'Alice', online: true, world: 2 });
      expect(one).toEqual([]);
      await port.flush();
      sub.unsubscribe();
      port.presenceChanged({ characterId: 'char-a', name: 'Alice', online: false, world: 2 });
      await port.flush();
      expect(one).toEqual([
        { characterId: 'char-a', name: 'Alice', online: true, world: 2 },
        { characterId: 'char-a', name: 'Alice', online: false, world: 2 },
      ]);
      expect(two).toEqual([{ characterId: 'char-a', name: 'Alice', online: true, world: 2 }]);
    });

    it('"who is online?" is answered by every serving world, through the presence listeners', async () => {
      const heard: Presence[] = [];
      port.onPresence((p) => heard.push(p));
      const online = Array.from({ length: 1200 }, (_, i) => ({
        characterId: `char-${i}`,
        name: `Player${i}`,
        online: true,
        world: 3,
      }));
      const serving = port.servePresence(() => online);
      port.requestPresence();
      expect(heard).toEqual([]); // never inside the request
      // Answers come back from the other worlds (here: this one) in any number of parts.
      await expect.poll(() => heard.length, { timeout: 5000 }).toBe(1200);
      expect(heard).toEqual(online);
      serving.unsubscribe();
      heard.length = 0;
      port.requestPresence();
      await port.flush();
      await new Promise((r) => setTimeout(r, 200));
      expect(heard).toEqual([]);
    });
  });

  describe('announcements', () => {
    it('reach every listener, the announcer included, in order; not after unsubscribe', async () => {
      const one: Announcement[] = [];
      const two: Announcement[] = [];
      port.onAnnouncement((a) => one.push(a));
      const sub = port.onAnnouncement((a) => two.push(a));
      const a1 = { fromName: 'Admin', message: 'Restart in 5 minutes', timestamp: 1_700_000_000_000 };
      const a2 = { fromName: 'Admin', message: 'Restart now', timestamp: 1_700_000_060_000 };
      port.announce(a1);
      expect(one).toEqual([]);
      await port.flush();
      sub.unsubscribe();
      port.announce(a2);
      await port.flush();
      expect(one).toEqual([a1, a2]);
      expect(two).toEqual([a1]);
    });
  });

  it('after close nothing is delivered', async () => {
    const got: CharacterMessage[] = [];
    port.subscribe('char-a', (m) => got.push(m));
    await port.close();
    port.publish('char-a', pm('late'));
    await port.flush();
    expect(got).toEqual([]);
  });
}
