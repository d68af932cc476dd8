import { describe, expect, it } from 'vitest';
import type { Command } from '../../ecs/core/commands.ts';
import { cleanChat } from '../../ecs/features/chat/index.ts';
import { type ClientMessage, decodeClientFrame, translate } from '../../net/protocol/index.ts';
import { AdminGate, type AuthAttemptLimiter } from '../../net/session/admin.ts';

/** Client message → command table (net/session/commands.ts) and the /admin gate. */

const CID = 'char-1';
/** Decode through the real protocol codec, so the table is tested against real wire payloads. */
const msg = (event: string, payload: unknown): ClientMessage => {
  const r = decodeClientFrame(Buffer.from(JSON.stringify([event, payload])), false);
  if (!r.ok) throw new Error(r.message);
  return r.message;
};
const commandOf = (event: string, payload: unknown): Command => {
  const t = translate(CID, msg(event, payload));
  if (t.kind !== 'command') throw new Error(`expected a command, got ${JSON.stringify(t)}`);
  return t.command;
};

describe('translate', () => {
  const cases: [string, unknown, Partial<Command>][] = [
    ['player:move', { x: 5, z: -3 }, { type: 'move', x: 5, z: -3, run: false }],
    ['player:move', { x: 5, z: 7, run: true }, { type: 'move', x: 5, z: 7, run: true }],
    ['player:move', { cancel: true }, { type: 'moveCancel' }],
    [
      'player:action',
      { action: 'talk', targetId: 'npc-1' },
      { type: 'action', action: 'talk', targetId: 'npc-1' },
    ],
    ['inventory:use', { slot: 3, targetSlot: 4 }, { type: 'inventoryUse', slot: 3, targetSlot: 4 }],
    ['inventory:drop', { slot: 2, quantity: 5 }, { type: 'inventoryDrop', slot: 2, quantity: 5 }],
    ['inventory:move', { from: 1, to: 9 }, { type: 'inventoryMove', from: 1, to: 9 }],
    ['equipment:unequip', { slot: 'weapon' }, { type: 'unequip', slot: 'weapon' }],
    ['bank:deposit', { slot: 0 }, { type: 'bankDeposit', slot: 0 }],
    ['bank:withdraw', { itemId: 'logs', quantity: 2 }, { type: 'bankWithdraw', itemId: 'logs', quantity: 2 }],
    ['tradeRequest', { targetPlayerId: 'p2' }, { type: 'tradeRequest', targetPlayerId: 'p2' }],
    [
      'tradeRequestRespond',
      { tradeId: 't1', accept: false },
      { type: 'tradeRespond', tradeId: 't1', accept: false },
    ],
    [
      'tradeAddItem',
      { tradeId: 't1', inventorySlot: 4, quantity: 2 },
      { type: 'tradeAddItem', tradeId: 't1', inventorySlot: 4, quantity: 2 },
    ],
    ['tradeAddItem', { tradeId: 't1', coins: 500 }, { type: 'tradeSetCoins', tradeId: 't1', coins: 500 }],
    [
      'tradeRemoveItem',
      { tradeId: 't1', tradeSlot: 0 },
      { type: 'tradeRemoveItem', tradeId: 't1', tradeSlot: 0 },
    ],
    ['tradeAccept', { tradeId: 't1' }, { type: 'tradeAccept', tradeId: 't1' }],
    ['tradeCancel', { tradeId: 't1' }, { type: 'tradeCancel', tradeId: 't1' }],
    ['player:chat', { message: '  hello  ' }, { type: 'chat', message: 'hello' }],
    ['player:chat', { message: 'psst', to: 'Bob' }, { type: 'chat', message: 'psst', to: 'Bob' }],
    [
      'player:chat',
      { message: '/give bronze_sword 2' },
      { type: 'chatCommand', name: 'give', args: ['bronze_sword', '2'] },
    ],
    ['player:chat', { message: '/TP  10   20' }, { type: 'chatCommand', name: 'tp', args: ['10', '20'] }],
  ];
  it.each(cases)('%s %j', (event, payload, expected) => {
    const c = commandOf(event, payload);
    expect(c).toMatchObject({ ...expected, characterId: CID, origin: event });
  });

  it('hands /admin to the admin gate and never to the simulation', () => {
    expect(translate(CID, msg('player:chat', { message: '/admin  s3cret' }))).toEqual({
      kind: 'admin',
      code: 's3cret',
    });
    expect(translate(CID, msg('player:chat', { message: '/ADMIN a b' }))).toEqual({
      kind: 'admin',
      code: 'a b',
    });
  });

  it.each([
    [{ message: '   ' }, /blank/],
    [{ message: '\u0000\u0007' }, /blank/],
    [{ message: 'x'.repeat(256) }, /longer than 255/],
    [{ message: '/' }, /empty command/],
    [{ message: '\u202E\u200B \u2066\u2069', to: 'Bob' }, /blank/],
  ])('refuses chat %j with BAD_MESSAGE', (payload, why) => {
    const t = translate(CID, msg('player:chat', payload));
    expect(t).toMatchObject({ kind: 'error', code: 'BAD_MESSAGE' });
    if (t.kind === 'error') expect(t.message).toMatch(why);
  });

  it('accepts 255 characters after trimming and strips control characters', () => {
    expect(commandOf('player:chat', { message: ` ${'y'.repeat(255)} ` })).toMatchObject({
      message: 'y'.repeat(255),
    });
    expect(cleanChat('a\u0000b\u001bc\u0085d\n')).toBe('abcd');
  });

  it('refuses a second authenticate', () => {
    expect(translate(CID, msg('authenticate', { authToken: 'x' }))).toMatchObject({
      kind: 'error',
      code: 'BAD_MESSAGE',
    });
  });
});

describe('AdminGate', () => {
  /** A limiter like the HTTP one: 10 failures a window per address. */
  const limiter = (): AuthAttemptLimiter & { failures: Map<string, number> } => {
    const failures = new Map<string, number>();
    return {
      failures,
      countAuthFailure: (ip) => void failures.set(ip, (failures.get(ip) ?? 0) + 1),
      isAuthBlocked: (ip) => (failures.get(ip) ?? 0) >= 10,
    };
  };

  it('grants the right code and counts wrong ones against the address', () => {
    const l = limiter();
    const gate = new AdminGate('open-sesame', l);
    expect(gate.check('1.1.1.1', 'open-sesame')).toBe('granted');
    expect(gate.check('1.1.1.1', 'open-sesam')).toBe('wrong');
    expect(gate.check('1.1.1.1', 'open-sesame-and-more')).toBe('wrong');
    expect(gate.check('1.1.1.1', '')).toBe('wrong');
    expect(l.failures.get('1.1.1.1')).toBe(3);
    expect(l.failures.get('2.2.2.2')).toBeUndefined();
  });

  it('refuses even the right code once the address is blocked', () => {
    const l = limiter();
    const gate = new AdminGate('open-sesame', l);
    for (let i = 0; i < 10; i++) expect(gate.check('9.9.9.9', `guess-${i}`)).toBe('wrong');
    expect(gate.check('9.9.9.9', 'open-sesame')).toBe('blocked');
    expect(gate.check('8.8.8.8', 'open-sesame')).toBe('granted');
  });

  it('refuses everything when no ADMIN_CODE is configured', () => {
    const l = limiter();
    const gate = new AdminGate(undefined, l);
    expect(gate.check('1.1.1.1', '')).toBe('disabled');
    expect(gate.check('1.1.1.1', 'anything')).toBe('disabled');
    expect(l.failures.get('1.1.1.1')).toBe(2);
  });
});
