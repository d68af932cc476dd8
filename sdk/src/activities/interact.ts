import { type ActivityOptions, activity, countItems, type Ended, itemDelta } from '../activity.ts';
import type { GameClient } from '../client.ts';
import type { ServerPayload } from '../protocol.generated.ts';

/**
 * Actions on one entity (`player:action` verbs, which walk to the target first) and the conversation,
 * quest and trade requests, each settling with what the server answered.
 */

export type DialogueNode = ServerPayload<'dialogue:node'>;

/** How long a fight waits, after its target left view or was dropped, for the hit or death that explains it. */
const SETTLE_MS = 500;

export type FightOutcome =
  | {
      status: 'killed' | 'died' | 'target_gone' | 'stopped';
      hitsGiven: number;
      damageDealt: number;
      damageTaken: number;
    }
  | (Ended & { hitsGiven: number; damageDealt: number; damageTaken: number });

/**
 * Attacks an NPC (or a player where fighting is allowed) and settles when it dies (`killed`), the
 * character dies, the target leaves view (`target_gone`) or the fight ends otherwise (`stopped`: the
 * character moved or started something else). Progress counts the target's lost health. Default
 * timeout 120 s.
 */
export async function fight(
  game: GameClient,
  targetId: string,
  opts: ActivityOptions = {},
): Promise<FightOutcome> {
  const stats = { hitsGiven: 0, damageDealt: 0, damageTaken: 0 };
  const selfId = game.world.selfId;
  let engaged = false;
  const outcome = await activity<FightOutcome>(game, {
    origin: 'player:action',
    timeoutMs: opts.timeoutMs ?? 120_000,
    signal: opts.signal,
    start: () => game.send('player:action', { action: 'attack', targetId }),
    stop: () => game.send('player:move', { cancel: true }),
    listen: (finish) => [
      game.on('combat:hit', (h) => {
        if (h.attackerId === selfId && h.targetId === targetId) {
          engaged = true;
          stats.hitsGiven++;
          stats.damageDealt += h.damage;
          // The body may leave view before entity:death arrives: the last hit tells.
          if (h.targetHealth <= 0) return finish({ status: 'killed', ...stats });
          const max = game.world.entities.get(targetId)?.maxHealth;
          opts.onProgress?.({
            progress: stats.damageDealt,
            ...(max !== undefined ? { total: max } : {}),
            message: `hit ${h.damage}, target has ${h.targetHealth} left`,
          });
        } else if (h.targetId === selfId) stats.damageTaken += h.damage;
      }),
      game.on('entity:death', (d) => {
        if (d.id === targetId) finish({ status: 'killed', ...stats });
        else if (d.id === selfId) finish({ status: 'died', ...stats });
      }),
      game.on('world:update', (u) => {
        // A tick's world:update comes before its events: the killing hit and the death may follow, so
        // the fight ends otherwise only if they do not come soon.
        const later = (status: 'target_gone' | 'stopped') =>
          setTimeout(() => finish({ status, ...stats }), SETTLE_MS).unref();
        // Everyone who sees the target gets its death in its entry, killer or not.
        if (u.entities.some((e) => e.id === targetId && e.death !== undefined))
          return void finish({ status: 'killed', ...stats });
        if (u.removed.includes(targetId)) return void later('target_gone');
        // The fight is over for this side when the own character drops its target.
        const self = u.entities.find((e) => e.id === selfId);
        if (self !== undefined && 'targetId' in self) {
          if (self.targetId === targetId) engaged = true;
          else if (engaged && self.targetId === null) later('stopped');
        }
      }),
    ],
  });
  return 'hitsGiven' in outcome ? outcome : { ...outcome, ...stats };
}

/** Talks to an NPC: settles with the first dialogue node, or refused (`INVALID_TARGET`: nothing to say). */
export function talkTo(
  game: GameClient,
  targetId: string,
  opts: ActivityOptions = {},
): Promise<{ status: 'node'; node: DialogueNode } | Ended> {
  return activity(game, {
    origin: 'player:action',
    timeoutMs: opts.timeoutMs ?? 60_000,
    signal: opts.signal,
    start: () => game.send('player:action', { action: 'talk', targetId }),
    listen: (finish) => [game.on('dialogue:node', (node) => finish({ status: 'node' as const, node }))],
  });
}

/** Answers the open dialogue node: the next node, or `closed` when the conversation ended. */
export function chooseOption(
  game: GameClient,
  optionId: string,
  opts: ActivityOptions = {},
): Promise<{ status: 'node'; node: DialogueNode } | { status: 'closed' } | Ended> {
  return activity(game, {
    origin: 'dialogue:choose',
    timeoutMs: opts.timeoutMs ?? 10_000,
    signal: opts.signal,
    start: () => game.send('dialogue:choose', { optionId }),
    listen: (finish) => [
      game.on('dialogue:node', (node) => finish({ status: 'node' as const, node })),
      game.on('dialogue:close', () => finish({ status: 'closed' as const })),
    ],
  });
}

/**
 * A `player:action` verb whose answer is one server event: `bank` (bank:update), `shop` (shop:open),
 * `use` on a station (station:open), `pray` at an altar (prayer:state). Walks there first.
 */
export function actOn<E extends 'bank:update' | 'shop:open' | 'station:open' | 'prayer:state'>(
  game: GameClient,
  action: 'bank' | 'shop' | 'use' | 'pray',
  targetId: string,
  answer: E,
  opts: ActivityOptions = {},
): Promise<{ status: 'done'; answer: ServerPayload<E> } | Ended> {
  return activity(game, {
    origin: 'player:action',
    timeoutMs: opts.timeoutMs ?? 60_000,
    signal: opts.signal,
    start: () => game.send('player:action', { action, targetId }),
    listen: (finish) => [
      game.on(answer, (p) => finish({ status: 'done' as const, answer: p as ServerPayload<E> })),
    ],
  });
}

/** Picks up a ground item (walking there): settles with what entered the inventory. */
export function pickUp(
  game: GameClient,
  targetId: string,
  opts: ActivityOptions = {},
): Promise<{ status: 'done'; items: Map<string, number> } | Ended> {
  const before = countItems(game.world.self?.inventory);
  return activity(game, {
    origin: 'player:action',
    timeoutMs: opts.timeoutMs ?? 60_000,
    signal: opts.signal,
    start: () => game.send('player:action', { action: 'pickup', targetId }),
    listen: (finish) => [
      game.on('player:sync', (s) => {
        const items = itemDelta(before, countItems(s.inventory));
        if ([...items.values()].some((d) => d > 0)) finish({ status: 'done' as const, items });
      }),
    ],
  });
}

export type QuestList = ServerPayload<'quest:list'>;

/** Every quest of the world with the character's status, stage and progress. */
export function questList(
  game: GameClient,
  opts: ActivityOptions = {},
): Promise<{ status: 'done'; list: QuestList } | Ended> {
  return activity(game, {
    origin: 'quest:list',
    timeoutMs: opts.timeoutMs ?? 10_000,
    signal: opts.signal,
    start: () => game.send('quest:list', {}),
    listen: (finish) => [game.on('quest:list', (list) => finish({ status: 'done' as const, list }))],
  });
}

/** Starts a quest next to its start NPC (`quest:start`): settles with its first `quest:update`. */
export function startQuest(
  game: GameClient,
  questId: string,
  opts: ActivityOptions = {},
): Promise<{ status: 'done'; update: ServerPayload<'quest:update'> } | Ended> {
  return activity(game, {
    origin: 'quest:start',
    timeoutMs: opts.timeoutMs ?? 10_000,
    signal: opts.signal,
    start: () => game.send('quest:start', { questId }),
    listen: (finish) => [
      game.on('quest:update', (update) => {
        if (update.questId === questId) finish({ status: 'done' as const, update });
      }),
    ],
  });
}
