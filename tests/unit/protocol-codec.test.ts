import { pack, unpack } from 'msgpackr';
import { describe, expect, it } from 'vitest';
import { decodeClientFrame, encodeServerEvent, serverEvents } from '../../net/protocol/index.ts';

const text = (v: unknown) => new TextEncoder().encode(JSON.stringify(v));

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
