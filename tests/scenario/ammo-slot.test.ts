import { describe, expect, it } from 'vitest';
import { combatContent } from '../../ecs/features/combat/combat-scenario-helpers.ts';
import { decodeClientFrame, translate } from '../../net/protocol/index.ts';
import { serverEvents } from '../../net/protocol/server-events.ts';
import { Replicator } from '../../net/replication/replicator.ts';
import { type Delivery, deliverTick } from '../../net/session/outbound.ts';
import { Scenario } from './harness.ts';

/**
 * The ammunition slot is `ammo` on the wire (the content and the simulation call it `arrows`): in
 * player:sync.equipment, and as the slot equipment:unequip names, through the real codec and delivery.
 */

type Sent = { to: string; event: string; payload: Record<string, unknown> };

function world() {
  const s = new Scenario({ content: combatContent() });
  const sent: Sent[] = [];
  const delivery: Delivery = {
    send: (to, event, payload) => void sent.push({ to, event, payload: payload as Record<string, unknown> }),
  };
  const replicator = new Replicator(s.world);
  s.afterTick.push((w) => deliverTick(w, replicator, delivery));
  const id = s.addPlayer({ name: 'Archer' });
  s.player(id).state.equipment = { arrows: { itemId: 'bronze_arrow', quantity: 20 } };
  s.player(id).syncDirty = true;
  s.step();
  const lastSync = () => {
    const m = sent.filter((x) => x.to === id && x.event === 'player:sync').at(-1);
    expect(serverEvents['player:sync'].parse(m?.payload)).toEqual(m?.payload);
    return m?.payload as { equipment: Record<string, unknown>; inventory: unknown[] };
  };
  /** A client frame through the real decoder and translation, then the tick. */
  const sendFrame = (event: string, payload: unknown) => {
    const r = decodeClientFrame(Buffer.from(JSON.stringify([event, payload])), false);
    if (!r.ok) return r;
    const t = translate(id, r.message);
    if (t.kind === 'command') s.push(t.command);
    s.step();
    return t;
  };
  return { s, id, lastSync, sendFrame };
}

describe('the ammunition slot on the wire', () => {
  it('player:sync.equipment names it ammo, never arrows', () => {
    const { lastSync } = world();
    const { equipment } = lastSync();
    expect(equipment['ammo']).toEqual({ itemId: 'bronze_arrow', quantity: 20 });
    expect(Object.keys(equipment)).not.toContain('arrows');
    expect(Object.keys(equipment).sort()).toEqual(
      [
        'weapon',
        'shield',
        'helmet',
        'body',
        'legs',
        'gloves',
        'boots',
        'cape',
        'amulet',
        'ring',
        'ammo',
      ].sort(),
    );
  });

  it('equipment:unequip {slot: "ammo"} takes the arrows off; "arrows" is no wire slot (BAD_MESSAGE)', () => {
    const { s, id, lastSync, sendFrame } = world();
    expect(sendFrame('equipment:unequip', { slot: 'arrows' })).toMatchObject({
      ok: false,
      event: 'equipment:unequip',
    });
    expect(s.player(id).state.equipment.arrows?.quantity).toBe(20);
    expect(sendFrame('equipment:unequip', { slot: 'ammo' })).toMatchObject({
      kind: 'command',
      command: { type: 'unequip', slot: 'arrows' },
    });
    expect(s.player(id).state.equipment.arrows).toBeUndefined();
    const sync = lastSync();
    expect(sync.equipment['ammo']).toBeNull();
    expect(sync.inventory).toContainEqual({ itemId: 'bronze_arrow', quantity: 20 });
  });
});
