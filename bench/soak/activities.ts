import type { GameClient } from '../../tests/crash/game-client.ts';

/**
 * The soak's combat and skilling mix (issue 19): fighters attack the rats and geese by Emberfold until
 * they die (and heal with the admin /heal when low), skillers chop the birch trees and light the logs
 * with their tinderbox (gathering, processing, fire stations that burn out). Each loop ends when its
 * client closes. Counts go to `stats`; a step that times out is counted and the loop goes on.
 */

export interface ActivityStats {
  kills: number;
  logs: number;
  fires: number;
  timeouts: number;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Where the fighters and skillers stand: next to the rats, the geese, the birch trees. */
export const RAT_SPOT: [number, number] = [580, 571];
export const GOOSE_SPOT: [number, number] = [626, 626];
export const TREE_SPOT: [number, number] = [570, 628];

function pick<T>(values: Iterable<T>): T | undefined {
  const all = [...values];
  return all[Math.floor(Math.random() * all.length)];
}

export async function fightLoop(c: GameClient, stats: ActivityStats): Promise<void> {
  try {
    while (!c.closed) {
      const health = c.sync?.health as { current: number; max: number } | undefined;
      if (health && health.current < health.max / 2) await c.command('/heal');
      const target = pick(c.npcs.keys());
      if (!target) {
        await sleep(1000);
        continue;
      }
      const outcome = c.waitFor(
        (m) =>
          (m.event === 'entity:death' && m.payload.id === target) ||
          (m.event === 'error' && m.payload.event === 'player:action'),
        30_000,
      );
      c.send('player:action', { action: 'attack', targetId: target });
      try {
        const m = await outcome;
        if (m.event === 'entity:death') stats.kills++;
        else c.npcs.delete(target); // gone (dead, respawned with a new id) or out of reach
      } catch (err) {
        if (c.closed) return;
        stats.timeouts++;
        c.npcs.delete(target);
        void err;
      }
    }
  } catch {
    // The socket closed mid-step: the soak is over.
  }
}

type Slot = { itemId: string; quantity: number } | null;

export async function skillLoop(c: GameClient, stats: ActivityStats): Promise<void> {
  const inventory = () => (c.sync?.inventory ?? []) as Slot[];
  const slotOf = (itemId: string) => inventory().findIndex((s) => s?.itemId === itemId);
  try {
    while (!c.closed) {
      const tree = pick(c.resources.keys());
      if (!tree) {
        await sleep(1000);
        continue;
      }
      // Chop until three logs came in (or the tree fell), then burn what was chopped.
      let chopped = 0;
      const three = new Promise<void>((resolve) => {
        const step = () => {
          c.waitFor(
            (m) =>
              (m.event === 'skill:xp' && m.payload.skill === 'woodcutting') || m.event === 'gathering:stop',
            60_000,
          )
            .then((m) => {
              if (m.event === 'gathering:stop' || ++chopped >= 3) resolve();
              else step();
            })
            .catch(() => {
              if (!c.closed) stats.timeouts++;
              resolve();
            });
        };
        step();
      });
      c.send('player:action', { action: 'gather', targetId: tree });
      await three;
      stats.logs += chopped;
      await sleep(700); // the player:sync with the logs
      for (let burn = 0; burn < 3 && slotOf('birch_logs') >= 0 && !c.closed; burn++) {
        const done = c.waitFor(
          (m) =>
            m.event === 'processing:stop' || (m.event === 'error' && m.payload.event === 'inventory:use'),
          20_000,
        );
        c.send('inventory:use', { slot: slotOf('tinderbox'), targetSlot: slotOf('birch_logs') });
        try {
          const m = await done;
          if (m.event === 'processing:stop' && m.payload.made > 0) stats.fires++;
        } catch {
          if (c.closed) return;
          stats.timeouts++;
        }
        await sleep(700);
      }
      // Lighting fires walks the player off: back to the trees now and then.
      if (Math.random() < 0.2) await c.command(`/tp ${TREE_SPOT[0]} ${TREE_SPOT[1]}`);
    }
  } catch {
    // The socket closed mid-step: the soak is over.
  }
}
