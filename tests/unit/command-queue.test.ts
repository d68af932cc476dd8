import { describe, expect, it } from 'vitest';
import { type Command, CommandQueue } from '../../ecs/core/commands.ts';
import { inboundLimits } from '../../net/session/inbound.ts';
import { WS_MESSAGES_PER_SECOND } from '../../net/ws/message-rate.ts';

const chat = (characterId: string, message: string): Command => ({ type: 'chat', characterId, message });
const said = (cmds: Command[]) =>
  cmds.map((c) => `${c.characterId}:${c.type === 'chat' ? c.message : c.type}`);

describe('CommandQueue', () => {
  it('takes every command in arrival order, a player beyond its per-tick cap waiting in order', () => {
    const q = new CommandQueue({ perTick: 2, backlog: 10 });
    for (const [id, m] of [
      ['a', '1'],
      ['b', '1'],
      ['a', '2'],
      ['a', '3'],
      ['b', '2'],
      ['a', '4'],
      ['b', '3'],
    ] as const)
      expect(q.offer(chat(id, m))).toBe(true);
    expect(said(q.drain())).toEqual(['a:1', 'b:1', 'a:2', 'b:2']);
    q.offer(chat('c', '1'));
    q.offer(chat('a', '5'));
    // What waited comes first, in arrival order; a's fifth is over a's cap again and waits.
    expect(said(q.drain())).toEqual(['a:3', 'a:4', 'b:3', 'c:1']);
    expect(said(q.drain())).toEqual(['a:5']);
    expect(q.drain()).toEqual([]);
    expect(q.length).toBe(0);
  });

  it("refuses a player's command once its backlog is full, queues nothing, and takes it again after a tick", () => {
    const q = new CommandQueue({ perTick: 3, backlog: 5 });
    const accepted = Array.from({ length: 8 }, (_, i) => q.offer(chat('a', String(i))));
    expect(accepted).toEqual([true, true, true, true, true, false, false, false]);
    expect(q.pending('a')).toBe(5);
    // Another player's backlog is its own.
    expect(q.offer(chat('b', '0'))).toBe(true);
    expect(said(q.drain())).toEqual(['a:0', 'a:1', 'a:2', 'b:0']);
    expect(q.pending('a')).toBe(2);
    expect(q.offer(chat('a', '5'))).toBe(true);
    expect(said(q.drain())).toEqual(['a:3', 'a:4', 'a:5']);
  });

  it("never caps or refuses the server's own commands, and keeps them in arrival order with the players'", () => {
    const q = new CommandQueue({ perTick: 1, backlog: 1 });
    q.offer(chat('a', '1'));
    for (let i = 0; i < 50; i++) q.push({ type: 'leave', characterId: 'a', reason: 'disconnect' });
    expect(q.offer(chat('a', '2'))).toBe(false);
    const taken = q.drain();
    expect(taken).toHaveLength(51);
    expect(said(taken.slice(0, 2))).toEqual(['a:1', 'a:leave']);
  });
});

describe('inboundLimits', () => {
  it('takes at least the transport rate per tick, and lets about two ticks wait', () => {
    expect(inboundLimits(600)).toEqual({ perTick: 36, backlog: 72 });
    expect(inboundLimits(1000)).toEqual({ perTick: 60, backlog: 120 });
    // Short ticks keep the floor of 16 a tick, and room for a whole second's admission.
    expect(inboundLimits(50)).toEqual({ perTick: 16, backlog: WS_MESSAGES_PER_SECOND });
    for (const tickMs of [10, 50, 100, 250, 600, 601, 999, 2000, 60_000]) {
      const { perTick, backlog } = inboundLimits(tickMs);
      expect(perTick).toBeGreaterThanOrEqual(Math.ceil((WS_MESSAGES_PER_SECOND * tickMs) / 1000));
      expect(backlog).toBeGreaterThanOrEqual(Math.max(2 * perTick, WS_MESSAGES_PER_SECOND));
    }
  });

  it('a client at the documented 60 messages a second is never refused and never waits past the next tick', () => {
    for (const tickMs of [50, 600, 1000]) {
      const q = new CommandQueue(inboundLimits(tickMs));
      // 10 s of sending every 1000/60 ms, with a tick every tickMs, at any phase between them.
      let sent = 0;
      let next = 0;
      for (let t = tickMs; t <= 10_000; t += tickMs) {
        while ((sent * 1000) / WS_MESSAGES_PER_SECOND < t) {
          expect(q.offer(chat('a', String(sent++)))).toBe(true);
        }
        const taken = q.drain();
        for (const c of taken) expect(c.type === 'chat' && c.message).toBe(String(next++));
        // Everything that arrived before this tick is applied in it.
        expect(q.length, `${tickMs} ms ticks at ${t} ms`).toBe(0);
      }
    }
  });
});
