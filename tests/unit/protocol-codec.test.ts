import { pack, unpack } from 'msgpackr';
import { describe, expect, it } from 'vitest';
import { MAX_JSON_DEPTH } from '../../lib/json-limits.ts';
import { decodeClientFrame, encodeServerEvent, serverEvents } from '../../net/protocol/index.ts';

const text = (v: unknown) => new TextEncoder().encode(JSON.stringify(v));
const raw = (s: string) => new TextEncoder().encode(s);
/** A value nested n levels (objects and arrays in turn), built with a loop. */
function nested(n: number): unknown {
  let v: unknown = 1;
  for (let i = 0; i < n; i++) v = i % 2 ? [v] : { a: v };
  return v;
}
/** `["player:chat",{"message":"hi","x":` + n levels + `}]`, as JSON text or MessagePack bytes. */
function deepChat(n: number, binary: boolean): Uint8Array {
  if (!binary) return raw(`["player:chat",{"message":"hi","x":${'['.repeat(n)}${']'.repeat(n)}}]`);
  const head = pack(['player:chat', { message: 'hi', x: 0 }]);
  // The last byte is the 0 of x: replace it with n one-element arrays around an empty one.
  return Uint8Array.from([...head.subarray(0, head.length - 1), ...new Array(n - 1).fill(0x91), 0x90]);
}

describe('protocol codec (contract §1.1)', () => {
  it('decodes a JSON text frame and a msgpack binary frame to the same command', () => {
    const json = decodeClientFrame(text(['player:move', { x: 12, z: 40 }]), false);
    const bin = decodeClientFrame(pack(['player:move', { x: 12, z: 40 }]), true);
    expect(json).toEqual({ ok: true, message: { event: 'player:move', payload: { x: 12, z: 40 } } });
    expect(bin).toEqual(json);
  });

  it.each([
    ['not JSON', new TextEncoder().encode('{nope'), false, null],
    ['not an array', text({ event: 'player:move' }), false, null],
    ['unknown event', text(['player:fly', {}]), false, 'player:fly'],
    ['unknown event in msgpack', pack(['zzz', { a: 1 }]), true, 'zzz'],
    ['an event name without a payload', text(['player:move']), false, 'player:move'],
    ['a first element that is not a string', text([5, {}]), false, null],
    ['payload not an object', text(['player:move', 5]), false, 'player:move'],
    ['payload fails its schema', text(['player:move', { x: 1.5, z: 2 }]), false, 'player:move'],
    ['garbage msgpack', new Uint8Array([0xc1, 0xff, 0x00]), true, null],
  ])('rejects %s with a message and the event name when known', (_label, frame, binary, event) => {
    const r = decodeClientFrame(frame, binary);
    expect(r.ok).toBe(false);
    if (!r.ok) {
      expect(r.message.length).toBeGreaterThan(0);
      expect(r.event).toBe(event);
    }
  });

  const kinds = [['JSON', false] as const, ['MessagePack', true] as const];
  it.each(kinds)(
    'refuses a %s frame nested past 32 levels, naming the limit and the event (33, 1,500, 10,000 levels)',
    (_kind, binary) => {
      expect(MAX_JSON_DEPTH).toBe(32);
      for (const n of [MAX_JSON_DEPTH - 1, 1500, 10_000]) {
        // The message's array and payload object are two levels: n + 2 in all.
        expect(decodeClientFrame(deepChat(n, binary), binary)).toEqual({
          ok: false,
          message: `frame is nested more than ${MAX_JSON_DEPTH} levels deep`,
          event: 'player:chat',
        });
      }
      // 32 levels pass the limit (the unknown key is then dropped by the schema).
      expect(decodeClientFrame(deepChat(MAX_JSON_DEPTH - 2, binary), binary)).toEqual({
        ok: true,
        message: { event: 'player:chat', payload: { message: 'hi' } },
      });
    },
  );

  it.each(kinds)(
    'refuses a bare %s nesting of 10,000 and 1,000,000 levels without an event name',
    (_kind, binary) => {
      for (const n of [10_000, 1_000_000]) {
        const frame = binary
          ? Uint8Array.from([...new Array(n).fill(0x91), 0x90])
          : raw('['.repeat(n) + ']'.repeat(n));
        expect(decodeClientFrame(frame, binary)).toEqual({
          ok: false,
          message: `frame is nested more than ${MAX_JSON_DEPTH} levels deep`,
          event: null,
        });
      }
    },
  );

  it('refuses MessagePack extension types (records, dates), naming the event', () => {
    expect(decodeClientFrame(pack(['player:chat', { message: new Date(0) }]), true)).toEqual({
      ok: false,
      message: 'frame is not plain MessagePack (extension types are not accepted)',
      event: 'player:chat',
    });
    expect(decodeClientFrame(text(['player:chat', nested(40)]), false)).toMatchObject({
      ok: false,
      event: 'player:chat',
    });
  });

  it('encodes server events self-describing: a stock unpack() decodes every frame alone', () => {
    const payload = { code: 'BAD_MESSAGE' as const, message: 'x', event: null };
    const a = encodeServerEvent('msgpack', 'error', payload) as Uint8Array;
    const b = encodeServerEvent('msgpack', 'error', payload) as Uint8Array;
    expect(unpack(b)).toEqual(['error', payload]);
    expect(unpack(a)).toEqual(['error', payload]);
    expect(JSON.parse(encodeServerEvent('json', 'error', payload) as string)).toEqual(['error', payload]);
    expect(serverEvents.error.parse(payload)).toEqual(payload);
  });
});
