import { describe, expect, it } from 'vitest';
import { Scenario } from '../../../tests/scenario/harness.ts';
import { sanitizeChat } from './chat-command.ts';
import { PRIVATE_MESSAGE_BURST, PRIVATE_MESSAGES_PER_SECOND } from './private-limit.ts';

describe('chat (contract §2.1 player:chat)', () => {
  it('local chat reaches players within view distance only, the sender included', () => {
    const s = new Scenario();
    const view = s.world.viewDistance;
    const talker = s.addPlayer({ name: 'Talker', x: 100, z: 100 });
    const near = s.addPlayer({ name: 'Near', x: 100 + view, z: 100 - view });
    const far = s.addPlayer({ name: 'Far', x: 100 + view + 1, z: 100 });
    s.push({ type: 'chat', characterId: talker, message: '  hello there  ' });
    s.step();
    for (const id of [talker, near]) {
      const e = s.lastEvent(id, 'chat');
      expect(e?.data).toEqual({
        fromId: talker,
        fromName: 'Talker',
        message: 'hello there',
        channel: 'local',
        timestamp: s.world.nowMs,
      });
    }
    expect(s.eventsOf(far, 'chat')).toEqual([]);
  });

  it('a private message reaches the named player anywhere (name case-insensitive) and echoes to the sender', () => {
    const s = new Scenario();
    const a = s.addPlayer({ name: 'Alice', x: 10, z: 10 });
    const b = s.addPlayer({ name: 'Bob', x: 190, z: 190 });
    const c = s.addPlayer({ name: 'Carol', x: 10, z: 11 });
    s.push({ type: 'chat', characterId: a, message: 'psst', to: 'bOB' });
    s.step();
    const expected = {
      fromId: a,
      fromName: 'Alice',
      message: 'psst',
      channel: 'private',
      timestamp: s.world.nowMs,
    };
    expect(s.eventsOf(b, 'chat').map((e) => e.data)).toEqual([expected]);
    expect(s.eventsOf(a, 'chat').map((e) => e.data)).toEqual([expected]);
    expect(s.eventsOf(c, 'chat')).toEqual([]);
  });

  it('an unknown private target gets NOT_FOUND and nothing is delivered', () => {
    const s = new Scenario();
    const a = s.addPlayer({ name: 'Alice' });
    const b = s.addPlayer({ name: 'Bob' });
    s.push({ type: 'chat', characterId: a, message: 'hi', to: 'Nobody', origin: 'player:chat' });
    s.step();
    expect(s.lastEvent(a, 'error')?.data).toEqual({
      code: 'NOT_FOUND',
      message: expect.any(String),
      event: 'player:chat',
    });
    expect(s.eventsOf(a, 'chat')).toEqual([]);
    expect(s.eventsOf(b, 'chat')).toEqual([]);
  });

  it('blank or over-long messages get BAD_MESSAGE and nothing is delivered', () => {
    const s = new Scenario();
    const a = s.addPlayer({ name: 'Alice' });
    const b = s.addPlayer({ name: 'Bob' });
    for (const message of ['', '   ', '\u0007\u0008', 'x'.repeat(256)]) {
      s.push({ type: 'chat', characterId: a, message });
    }
    s.push({ type: 'chat', characterId: a, message: ` ${'y'.repeat(255)} ` });
    s.step();
    expect(s.eventsOf(a, 'error').map((e) => e.data.code)).toEqual([
      'BAD_MESSAGE',
      'BAD_MESSAGE',
      'BAD_MESSAGE',
      'BAD_MESSAGE',
    ]);
    expect(s.eventsOf(b, 'chat').map((e) => e.data.message)).toEqual(['y'.repeat(255)]);
  });

  it('a line of only invisible or direction-override characters is BAD_MESSAGE, local or private; nothing is delivered', () => {
    const s = new Scenario();
    const a = s.addPlayer({ name: 'Alice' });
    const b = s.addPlayer({ name: 'Bob' });
    const invisible = [
      '\u202E',
      '\u200B\u200C\u200D',
      ' \u2066\u2069\u202A\u202C ',
      '\uFEFF\u2060\u00AD',
      '\u3164\uFE0F',
      '\u{E0041}\u{E007F}',
      '\u2800',
    ];
    for (const message of invisible) {
      s.push({ type: 'chat', characterId: a, message, origin: 'player:chat' });
      s.push({ type: 'chat', characterId: a, message, to: 'Bob', origin: 'player:chat' });
    }
    s.step();
    expect(s.eventsOf(a, 'error').map((e) => e.data)).toEqual(
      invisible
        .flatMap(() => [0, 1])
        .map(() => ({
          code: 'BAD_MESSAGE',
          message: expect.any(String),
          event: 'player:chat',
        })),
    );
    expect(s.eventsOf(a, 'chat')).toEqual([]);
    expect(s.eventsOf(b, 'chat')).toEqual([]);
  });

  it('invisible format characters are removed from what is delivered; emoji joined by a zero-width joiner stay whole', () => {
    const s = new Scenario();
    const a = s.addPlayer({ name: 'Alice' });
    const b = s.addPlayer({ name: 'Bob' });
    s.push({ type: 'chat', characterId: a, message: '\u202Eevil\u202C \u200Bhi' });
    s.push({
      type: 'chat',
      characterId: a,
      message: 'fam\u200Dily \u{1F468}\u200D\u{1F469}\u200D\u{1F467}',
      to: 'Bob',
    });
    s.step();
    expect(s.eventsOf(b, 'chat').map((e) => e.data.message)).toEqual([
      'evil hi',
      'family \u{1F468}\u200D\u{1F469}\u200D\u{1F467}',
    ]);
  });

  it('private messages are limited per sender: a burst, then a few a second; RATE_LIMITED names the event; local chat is not limited', () => {
    const s = new Scenario({ tickMs: 600 });
    const a = s.addPlayer({ name: 'Alice' });
    const b = s.addPlayer({ name: 'Bob' });
    const c = s.addPlayer({ name: 'Carol' });
    for (let i = 0; i < 50; i++)
      s.push({ type: 'chat', characterId: a, message: `pm ${i}`, to: 'Bob', origin: 'player:chat' });
    for (let i = 0; i < 20; i++) s.push({ type: 'chat', characterId: a, message: `local ${i}` });
    // Another sender has its own allowance.
    s.push({ type: 'chat', characterId: c, message: 'hi Bob', to: 'Bob', origin: 'player:chat' });
    s.step();
    const toBob = () => s.eventsOf(b, 'chat').filter((e) => e.data.channel === 'private');
    expect(toBob().map((e) => e.data.message)).toEqual([
      ...Array.from({ length: PRIVATE_MESSAGE_BURST }, (_, i) => `pm ${i}`),
      'hi Bob',
    ]);
    const refused = s.eventsOf(a, 'error').map((e) => e.data);
    expect(refused).toHaveLength(50 - PRIVATE_MESSAGE_BURST);
    for (const e of refused) expect(e).toMatchObject({ code: 'RATE_LIMITED', event: 'player:chat' });
    expect(s.eventsOf(b, 'chat').filter((e) => e.data.channel === 'local')).toHaveLength(20);

    // Over the next 10 s of game time, 3 attempts a tick (5 a second): what passes is the sustained rate.
    const before = toBob().length;
    for (let t = 0; t < 10_000 / 600; t++) {
      for (let k = 0; k < 3; k++) s.push({ type: 'chat', characterId: a, message: `later ${t}`, to: 'Bob' });
      s.step();
    }
    const passed = toBob().length - before;
    expect(passed).toBeGreaterThanOrEqual(PRIVATE_MESSAGES_PER_SECOND * 10 - 1);
    expect(passed).toBeLessThanOrEqual(PRIVATE_MESSAGES_PER_SECOND * 10 + 1);
  });

  it('one private message a second passes forever, at any tick length', () => {
    for (const tickMs of [50, 600, 1000]) {
      const s = new Scenario({ tickMs });
      const a = s.addPlayer({ name: 'Alice' });
      const b = s.addPlayer({ name: 'Bob' });
      const every = Math.max(1, Math.round(1000 / tickMs));
      for (let t = 0; t < every * 30; t++) {
        if (t % every === 0) s.push({ type: 'chat', characterId: a, message: 'ping', to: 'Bob' });
        s.step();
      }
      expect(s.eventsOf(a, 'error')).toEqual([]);
      expect(s.eventsOf(b, 'chat')).toHaveLength(30);
    }
  });

  it('control characters are removed from what is delivered', () => {
    expect(sanitizeChat('a\u0000b\nc\u007f\u0085d\t ')).toBe('abcd');
    expect(sanitizeChat('héllo 👋')).toBe('héllo 👋');
    expect(sanitizeChat('👋'.repeat(255))).toBe('👋'.repeat(255));
    expect(sanitizeChat('👋'.repeat(256))).toBeNull();
  });
});
