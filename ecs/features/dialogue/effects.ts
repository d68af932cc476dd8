import type { PlayerAction } from '../../core/commands.ts';
import { itemsChanged } from '../../core/players.ts';
import { interfaceOpened } from '../../core/reactions.ts';
import type { GameWorld, PlayerData } from '../../core/world.ts';
import { emitError } from '../../core/world.ts';
import { addItem, holdingsOf, itemsLocked } from '../inventory/index.ts';
import { startQuest, talkedTo } from '../quests/index.ts';
import type { OpenDialogue } from './state.ts';

/**
 * What a dialogue response's `effect` does, run on the server when the player picks it. An effect that
 * opens another interface (bank, shop) ends the conversation; the others let it go on to the response's
 * next node. `npc` is the conversation (the NPC the player talks to).
 *
 *  openBank                  the NPC's bank (`bank:update`)
 *  openStore / openShop      the shop the NPC keeps (`shop:open`)
 *  startQuest:<questId>      start that quest (requirements checked; this talk counts for its first
 *                            dialogue stage with this NPC)
 *  completeQuest:<questId>   (on a node) finish the quest's current report or delivery to this NPC; the
 *                            talk that opened the conversation already did, so usually nothing is left
 *  giveItem:<itemId>[:<n>]   give n (default 1) of an item
 *  openTanner                recognised; this world offers no tanning, so it does nothing
 *
 * An effect returns false when it was refused (its error already sent): a refused `startQuest` must not
 * go on to the node that tells the quest's first step, so the conversation ends there instead.
 */
export type Effect = (
  world: GameWorld,
  player: PlayerData,
  npc: OpenDialogue,
  arg: string | undefined,
  origin: string | undefined,
) => boolean | undefined;

/**
 * Run the `player:action` verb of whichever feature answers it, on this NPC (the player already stands
 * next to it): the bank and shops open exactly as their own action opens them, without this feature
 * depending on them. A world without that feature offers nothing.
 */
function act(verb: PlayerAction): Effect {
  return (world, player, npc, _arg, origin) => {
    const spec = world.plan.actions.get(verb);
    const run = typeof spec === 'function' ? spec : spec?.run;
    run?.(world, player, npc.entityId, origin);
  };
}

const openBank = act('bank');
const openShop = act('shop');

const EFFECTS: Readonly<Record<string, Effect>> = {
  openBank: (world, player, npc, arg, origin) => {
    interfaceOpened(world, player, 'bank');
    openBank(world, player, npc, arg, origin);
  },
  openStore: openShop,
  openShop,
  startQuest: (world, player, npc, arg, origin) => startQuest(world, player, arg ?? '', npc.npcId, origin),
  completeQuest: (world, player, npc) => {
    talkedTo(world, player, npc.npcId);
    return true;
  },
  giveItem: (world, player, _npc, arg, origin) => {
    const [itemId = '', n] = (arg ?? '').split(':');
    const quantity = n === undefined ? 1 : Number(n);
    if (!world.content.items.has(itemId) || itemsLocked(world, player, origin)) return false;
    const purse = holdingsOf(player);
    if (!addItem(world.content, purse, itemId, quantity)) {
      emitError(world, player.characterId, 'INVENTORY_FULL', 'your inventory is full', origin);
      return false;
    }
    player.state.inventory = purse.inventory;
    player.state.coins = purse.coins;
    itemsChanged(world, player);
    return true;
  },
  openTanner: () => true,
};

/** The effect's name and argument: `startQuest:cooks_assistant` -> ['startQuest', 'cooks_assistant']. */
export function parseEffect(effect: string): [string, string | undefined] {
  const i = effect.indexOf(':');
  return i < 0 ? [effect, undefined] : [effect.slice(0, i), effect.slice(i + 1)];
}

export function knownEffect(effect: string): boolean {
  return Object.hasOwn(EFFECTS, parseEffect(effect)[0]);
}

export function runEffect(
  world: GameWorld,
  player: PlayerData,
  npc: OpenDialogue,
  effect: string,
  origin: string | undefined,
): boolean {
  const [name, arg] = parseEffect(effect);
  const run = Object.hasOwn(EFFECTS, name) ? EFFECTS[name] : undefined;
  return run?.(world, player, npc, arg, origin) !== false;
}
