import { describe, expect, it } from 'vitest';
import { type LockPort, WorldLocks } from '../../net/session/world-locks.ts';

/** A database of holds in memory: character -> world (expiry is the persistence tests' business). */
function fakePort() {
  const holds = new Map<string, number>();
  const port: LockPort = {
    claimCharacters: async (world, ids) => {
      const got = new Set<string>();
      for (const id of ids) {
        const h = holds.get(id);
        if (h === undefined || h === world) {
          holds.set(id, world);
          got.add(id);
        }
      }
      return got;
    },
    renewCharacterLocks: async (world, ids) => ids.filter((id) => holds.get(id) !== world),
    releaseCharacterLocks: async (world, ids) => {
      for (const id of ids) if (holds.get(id) === world) holds.delete(id);
    },
    characterWorlds: async (ids) =>
      new Map(ids.filter((id) => holds.has(id)).map((id) => [id, holds.get(id) as number])),
  };
  return { holds, port };
}

describe('WorldLocks: this world holds on its characters', () => {
  it('claims a free character, is refused one another world holds (naming it), releases', async () => {
    const { holds, port } = fakePort();
    const one = new WorldLocks(port, 1, 30_000);
    const two = new WorldLocks(port, 2, 30_000);
    expect(await one.claim('a')).toEqual({ ok: true });
    expect(one.holds('a')).toBe(true);
    expect(await two.claim('a')).toEqual({ ok: false, heldBy: 1 });
    await one.release('a');
    expect(holds.has('a')).toBe(false);
    expect(await two.claim('a')).toEqual({ ok: true });
  });

  it('a hold let go between the refused claim and the look-up of its holder is claimed again', async () => {
    const { holds, port } = fakePort();
    holds.set('a', 2);
    // World 2 releases 'a' just after world 1's claim was refused, before world 1 asks who holds it.
    const racing: LockPort = {
      ...port,
      characterWorlds: async (ids) => {
        holds.delete('a');
        return port.characterWorlds(ids);
      },
    };
    const one = new WorldLocks(racing, 1, 30_000);
    expect(await one.claim('a')).toEqual({ ok: true });
    expect(holds.get('a')).toBe(1);
  });

  it('a renewal that finds holds lost reports them once and stops holding them', async () => {
    const { holds, port } = fakePort();
    const lost: string[][] = [];
    const one = new WorldLocks(port, 1, 30_000, (ids) => lost.push(ids));
    await one.claim('a');
    await one.claim('b');
    holds.set('b', 2); // b's hold expired and world 2 took it
    await one.renew();
    expect(lost).toEqual([['b']]);
    expect(one.holds('b')).toBe(false);
    await one.renew();
    expect(lost).toEqual([['b']]);
  });

  it('close lets go of every hold', async () => {
    const { holds, port } = fakePort();
    const one = new WorldLocks(port, 1, 30_000);
    one.start();
    await one.claim('a');
    await one.claim('b');
    await one.close();
    expect([...holds.keys()]).toEqual([]);
  });
});
