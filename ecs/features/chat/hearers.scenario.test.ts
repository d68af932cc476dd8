import { describe, expect, it } from 'vitest';
import { Scenario } from '../../../tests/scenario/harness.ts';
import { SOCIAL } from '../social/state.ts';
import { LOCAL_CHAT_HEARERS } from './hearers.ts';

describe('local chat in a crowd', () => {
  it(`is heard by the sender and the ${LOCAL_CHAT_HEARERS - 1} players nearest to it, the same every run`, () => {
    const run = () => {
      const s = new Scenario();
      const talker = s.addPlayer({ name: 'Talker', x: 100, z: 100 });
      // 160 others on rings around the talker: 8 on each of rings 1..20.
      const ring = new Map<string, number>();
      for (let r = 1; r <= 20; r++)
        for (let k = 0; k < 8; k++) {
          const dx = [r, -r, 0, 0, r, -r, r, -r][k] as number;
          const dz = [0, 0, r, -r, r, r, -r, -r][k] as number;
          ring.set(s.addPlayer({ name: `P${r}x${k}`, x: 100 + dx, z: 100 + dz }), r);
        }
      s.push({ type: 'chat', characterId: talker, message: 'crowded here' });
      s.step();
      const heard = [...ring.keys()].filter((id) => s.eventsOf(id, 'chat').length > 0);
      return { s, talker, ring, heard };
    };
    const { s, talker, ring, heard } = run();
    expect(s.eventsOf(talker, 'chat')).toHaveLength(1);
    expect(heard).toHaveLength(LOCAL_CHAT_HEARERS - 1);
    // Everyone nearer than the farthest hearer heard it.
    const farthest = Math.max(...heard.map((id) => ring.get(id) as number));
    for (const [id, r] of ring) if (r < farthest) expect(heard).toContain(id);
    expect(run().heard).toEqual(heard);
  });

  it('one of the nearest who ignores the sender hears nothing, and the next nearest hears it instead', () => {
    const s = new Scenario();
    const talker = s.addPlayer({ name: 'Talker', x: 100, z: 100 });
    const others: string[] = [];
    for (let i = 0; i < 120; i++)
      others.push(s.addPlayer({ name: `Q${i}`, x: 101 + (i % 12), z: 100 + Math.floor(i / 12) }));
    const heardBy = () => others.filter((id) => s.eventsOf(id, 'chat').length > 0);
    s.push({ type: 'chat', characterId: talker, message: 'one' });
    s.step();
    const first = heardBy();
    expect(first).toHaveLength(LOCAL_CHAT_HEARERS - 1);
    // The first hearer now ignores the talker.
    const ignorer = first[0] as string;
    s.world.get(SOCIAL).lists.set(ignorer, {
      friends: new Map(),
      ignored: new Map([[talker, 'Talker']]),
      requests: new Map(),
      outgoing: new Map(),
    });
    s.push({ type: 'chat', characterId: talker, message: 'two' });
    s.step();
    const second = others.filter((id) => s.eventsOf(id, 'chat').some((e) => e.data.message === 'two'));
    expect(second).toHaveLength(LOCAL_CHAT_HEARERS - 1);
    expect(second).not.toContain(ignorer);
    for (const id of first) if (id !== ignorer) expect(second).toContain(id);
  });
});
