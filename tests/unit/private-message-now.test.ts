import { describe, expect, it } from 'vitest';
import { emptyInventory } from '../../ecs/core/character-state.ts';
import type { Command } from '../../ecs/core/commands.ts';
import { newSkills } from '../../ecs/core/skills.ts';
import type { GameWorld } from '../../ecs/core/world.ts';
import { emptyLists, type SocialOp, takeSocialOps } from '../../ecs/features/social/index.ts';
import { WorldRuntime } from '../../src/world-runtime.ts';
import { testContent } from '../helpers/sim-content.ts';

/**
 * A private message needs no tick (issue 27): the runtime applies it when it arrives, with the same
 * rules as a tick (ignore list, who is online, the sender's allowance), and sends what it emits at once.
 * Each assertion below is made without running a tick in between.
 */

interface Sent {
  to: string;
  event: string;
  payload: Record<string, unknown>;
}

function character(id: string, name: string, x: number) {
  return {
    id,
    accountId: `a-${id}`,
    name,
    position: { x, y: 0, z: 10 },
    health: 100,
    coins: 0,
    skills: newSkills(),
    inventory: emptyInventory(),
    equipment: {},
    bank: [],
  };
}

function world() {
  const sent: Sent[] = [];
  const handedOut: SocialOp[] = [];
  const rt = new WorldRuntime({
    content: testContent(),
    seed: 7,
    tickMs: 600,
    delivery: {
      send: (to, event, payload) => {
        sent.push({ to, event, payload: payload as Record<string, unknown> });
      },
    },
    logger: { warn: () => {}, error: () => {} },
    afterImmediate: (w: GameWorld) => handedOut.push(...takeSocialOps(w)),
  });
  const join = (id: string, name: string, x: number) =>
    rt.enqueue({ type: 'join', characterId: id, accountId: `a-${id}`, state: character(id, name, x) });
  join('c1', 'Alice', 10);
  join('c2', 'Bob', 200); // far away: not in view, a private message still reaches him
  rt.loop.runTick();
  sent.length = 0;
  const chats = () => sent.filter((s) => s.event === 'chat:message');
  const pm = (from: string, to: string, message: string): Command => ({
    type: 'chat',
    characterId: from,
    message,
    to,
  });
  return { rt, sent, chats, handedOut, pm };
}

describe('a private message between ticks', () => {
  it('reaches the receiver and the sender’s echo at once, with no tick run', () => {
    const { rt, sent, chats, pm } = world();
    const tick = rt.tickStatus().number;
    expect(rt.offer(pm('c1', 'bob', 'psst'))).toBe(true);
    expect(rt.tickStatus().number).toBe(tick);
    expect(chats().map((s) => [s.to, s.payload['channel'], s.payload['message']])).toEqual([
      ['c2', 'private', 'psst'],
      ['c1', 'private', 'psst'],
    ]);
    // Nothing was left for the tick to send again.
    sent.length = 0;
    rt.loop.runTick();
    expect(chats()).toEqual([]);
  });

  it('an ignoring receiver gets nothing, the sender still sees its line (and is not told)', () => {
    const { rt, sent, chats, pm } = world();
    rt.enqueue({
      type: 'socialUpdate',
      characterId: 'c2',
      lists: { ...emptyLists(), ignored: [{ id: 'c1', name: 'Alice' }] },
    });
    rt.loop.runTick();
    sent.length = 0;
    rt.offer(pm('c1', 'Bob', 'still there?'));
    expect(chats().map((s) => s.to)).toEqual(['c1']);
  });

  it('to nobody online: NOT_FOUND at once; over the allowance: RATE_LIMITED at once', () => {
    const { rt, sent, pm } = world();
    rt.offer(pm('c1', 'Nobody', 'hello?'));
    expect(sent.map((s) => [s.to, s.event, s.payload['code']])).toEqual([['c1', 'error', 'NOT_FOUND']]);
    sent.length = 0;
    for (let i = 0; i < 6; i++) rt.offer(pm('c1', 'Bob', `line ${i}`));
    // The allowance is game time: 5 at once (one was spent on Nobody), then refused until ticks pass.
    const errors = sent.filter((s) => s.event === 'error').map((s) => s.payload['code']);
    expect(errors).toEqual(['RATE_LIMITED', 'RATE_LIMITED']);
  });

  it('from another world: delivered when it arrives unless the receiver ignores the sender', () => {
    const { rt, sent, chats } = world();
    const from = (fromId: string): Command => ({
      type: 'privateMessage',
      characterId: 'c2',
      fromId,
      fromName: 'Far',
      message: 'from afar',
      timestamp: 1,
    });
    rt.enqueue(from('x9'));
    expect(chats().map((s) => [s.to, s.payload['message']])).toEqual([['c2', 'from afar']]);
    rt.enqueue({
      type: 'socialUpdate',
      characterId: 'c2',
      lists: { ...emptyLists(), ignored: [{ id: 'x9', name: 'Far' }] },
    });
    rt.loop.runTick();
    sent.length = 0;
    rt.enqueue(from('x9'));
    expect(chats()).toEqual([]);
  });

  it('to a player online in another world: handed to the messaging port at once, echoed here', () => {
    const { rt, chats, handedOut, pm } = world();
    rt.enqueue({ type: 'socialPresence', characterId: 'x9', name: 'Carol', online: true, world: 2 });
    rt.loop.runTick();
    handedOut.length = 0;
    rt.offer(pm('c1', 'carol', 'over there?'));
    expect(handedOut).toEqual([
      expect.objectContaining({ op: 'privateMessage', toId: 'x9', fromId: 'c1', message: 'over there?' }),
    ]);
    expect(chats().map((s) => s.to)).toEqual(['c1']);
  });

  it('waits for the tick when its sender’s join is still queued, and local chat always does', () => {
    const { rt, chats, pm } = world();
    rt.enqueue({ type: 'join', characterId: 'c3', accountId: 'a-c3', state: character('c3', 'Cara', 12) });
    rt.offer(pm('c3', 'Alice', 'just arrived'));
    rt.offer({ type: 'chat', characterId: 'c1', message: 'hello all' });
    expect(chats()).toEqual([]);
    rt.loop.runTick();
    expect(chats().map((s) => [s.to, s.payload['channel'], s.payload['message']])).toEqual(
      expect.arrayContaining([
        ['c1', 'private', 'just arrived'],
        ['c3', 'private', 'just arrived'],
        ['c1', 'local', 'hello all'],
      ]),
    );
  });
});
