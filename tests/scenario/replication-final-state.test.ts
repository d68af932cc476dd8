import { unpack } from 'msgpackr';
import { describe, expect, it } from 'vitest';
import { populateWorld } from '../../ecs/core/populate.ts';
import { combatContent } from '../../ecs/features/combat/combat-scenario-helpers.ts';
import type { Encoding } from '../../net/protocol/codec.ts';
import { Replicator } from '../../net/replication/replicator.ts';
import { type Delivery, deliverTick, type Frame } from '../../net/session/outbound.ts';
import { Scenario } from './harness.ts';

/**
 * The frames of one tick leave a client that applies them in order in the tick's final state. The case
 * that broke it: a player killed and respawned in one tick got its respawn player:sync (full health)
 * before that tick's combat:hit {targetHealth: 0} and entity:death, and showed 0 HP until the next sync.
 */

type Msg = [string, Record<string, unknown>];

/** What a client keeps of health, applying every message as it comes (as client/src and sdk/ do). */
class HealthView {
  readonly health = new Map<string, number>();
  apply([event, p]: Msg): void {
    if (event === 'player:sync') this.health.set(p['id'] as string, p['health'] as number);
    if (event === 'combat:hit') this.health.set(p['targetId'] as string, p['targetHealth'] as number);
    if (event === 'entity:death') this.health.set(p['id'] as string, 0);
    if (event === 'world:update') {
      for (const e of p['entities'] as { id: string; health?: number }[])
        if (e.health !== undefined) this.health.set(e.id, e.health);
      for (const id of p['removed'] as string[]) this.health.delete(id);
    }
  }
}

const decode = (f: Frame): Msg => (typeof f === 'string' ? JSON.parse(f) : (unpack(f as Uint8Array) as Msg));

/** Connections as production has them: one batch per tick, frames copied (uWS), or the per-frame path. */
function connections(encoding: Encoding, batch: boolean): Delivery & { streams: Map<string, Msg[]> } {
  const streams = new Map<string, Msg[]>();
  const push = (to: string, f: Frame) => {
    const list = streams.get(to) ?? [];
    list.push(decode(f));
    streams.set(to, list);
  };
  const send = () => {
    throw new Error('every character is connected');
  };
  if (!batch) return { streams, send, sendRaw: push, connection: () => ({ encoding }) };
  return {
    streams,
    send,
    connection: (to) => ({
      encoding,
      copiesFrames: true,
      // No shared arena here: frames are bytes or strings, never segments.
      sendBatch: (frames) => {
        for (const f of frames) push(to, f as Frame);
      },
    }),
  };
}

describe('a tick leaves every client in its final state', () => {
  for (const [encoding, batch] of [
    ['msgpack', true],
    ['json', true],
    ['msgpack', false],
  ] as const) {
    it(`${encoding}${batch ? ', one batch per tick' : ''}: a player killed and respawned in one tick shows full health to itself and to who sees it`, () => {
      const s = new Scenario({
        content: combatContent([{ npcId: 'brute', x: 103, z: 100, count: 1, radius: 0 }]),
      });
      populateWorld(s.world);
      const replicator = new Replicator(s.world);
      const d = connections(encoding, batch);
      s.afterTick.push((w) => deliverTick(w, replicator, d));
      const victim = s.addPlayer({ name: 'Victim', x: 102, z: 100 });
      const watcher = s.addPlayer({ name: 'Watcher', x: 100, z: 102 });
      const brute = [...s.world.eidByWireId.keys()].find((w) => w.startsWith('npc-')) as string;
      s.push({ type: 'action', characterId: victim, action: 'attack', targetId: brute });
      let deathTick = -1;
      for (let t = 0; t < 200 && deathTick < 0; t++) {
        s.step();
        if (s.eventsOf(victim, 'entityDeath').length > 0) deathTick = s.world.tick;
      }
      expect(deathTick).toBeGreaterThan(0);
      const stream = (id: string) => d.streams.get(id) ?? [];
      // The death tick's frames did show the killing hit and the death, to both: in the victim's
      // world:update entry (its health there is the tick's final one); the victim has the events too.
      for (const id of [victim, watcher]) {
        const update = stream(id).find(([e, p]) => e === 'world:update' && p['tick'] === deathTick);
        const entry = (update?.[1]['entities'] as Record<string, unknown>[] | undefined)?.find(
          (e) => e['id'] === victim,
        );
        expect(entry?.['death'], `as ${id} sees it`).toEqual({ killerId: brute });
        expect((entry?.['hits'] as unknown[] | undefined)?.length).toBeGreaterThan(0);
      }
      const said = stream(victim).filter(([e, p]) => e === 'combat:hit' && p['targetId'] === victim);
      expect(said.at(-1)?.[1]['targetHealth']).toBe(0);
      expect(stream(victim).some(([e, p]) => e === 'entity:death' && p['id'] === victim)).toBe(true);
      expect(stream(watcher).some(([e]) => e === 'combat:hit' || e === 'entity:death')).toBe(false);
      const full = s.world.c.Health.max[s.player(victim).eid] as number;
      expect(s.world.c.Health.current[s.player(victim).eid]).toBe(full);
      for (const id of [victim, watcher]) {
        const view = new HealthView();
        for (const m of stream(id)) view.apply(m);
        expect(view.health.get(victim), `as ${id} sees it`).toBe(full);
      }
    });
  }
});
