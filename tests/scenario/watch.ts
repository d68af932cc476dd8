import type { WorldUpdatePayload } from '../../net/replication/encode.ts';
import { Replicator } from '../../net/replication/replicator.ts';
import type { Scenario } from './harness.ts';

/**
 * Runs replication after every tick of a scenario and keeps, per player, the world:update payloads it
 * would have been sent (tick by tick), exactly as the tick loop builds them, without sockets.
 */
export function watchReplication(s: Scenario) {
  const replicator = new Replicator(s.world);
  const received = new Map<string, WorldUpdatePayload[]>();
  s.afterTick.push(() => {
    for (const d of replicator.collect()) {
      const list = received.get(d.characterId) ?? [];
      list.push(replicator.cache.payload(d));
      received.set(d.characterId, list);
    }
  });
  return {
    replicator,
    /** Every world:update this player received. */
    updates: (id: string) => received.get(id) ?? [],
    /** The world:update of the current tick for this player, if any. */
    now: (id: string) => (received.get(id) ?? []).find((u) => u.tick === s.world.tick),
    clear: () => received.clear(),
  };
}
