import type { ItemStack } from './wire.ts';

/**
 * Turns what changed in the player's items between two `player:sync`s into sentences, told in the
 * light of what caused it: a purchase, a sale, a quest handing items over or taking them, gathering,
 * making (burnt food too), picking up, dropping, eating, burying, wearing. The server sends the new
 * state, not the story: the story is told here.
 */

export type Cause =
  | { kind: 'buy' }
  | { kind: 'sell' }
  | { kind: 'quest'; giver: string }
  | { kind: 'gather' }
  /** `fire`: firemaking, whose logs become a fire rather than an item. */
  | { kind: 'make'; fire?: boolean }
  | { kind: 'pickup' }
  | { kind: 'drop' }
  | { kind: 'use' }
  | { kind: 'quiet' };

export interface Holdings {
  /** Item id → quantity in the inventory. */
  items: Map<string, number>;
  /** Equipment slot → item id. */
  worn: Map<string, string>;
  coins: number;
}

export interface ItemWords {
  name(itemId: string): string;
  burnt(itemId: string): boolean;
  food(itemId: string): boolean;
  bones(itemId: string): boolean;
}

export function holdingsOf(s: {
  inventory: (ItemStack | null)[];
  equipment: Record<string, ItemStack | null>;
  coins: number;
}): Holdings {
  const items = new Map<string, number>();
  for (const st of s.inventory) if (st) items.set(st.itemId, (items.get(st.itemId) ?? 0) + st.quantity);
  const worn = new Map<string, string>();
  for (const [slot, st] of Object.entries(s.equipment)) if (st) worn.set(slot, st.itemId);
  return { items, worn, coins: s.coins };
}

export interface Change {
  gained: [string, number][];
  lost: [string, number][];
  /** Coins gained (negative: spent). */
  coins: number;
  wore: string[];
  removed: string[];
}

export function change(before: Holdings, after: Holdings): Change {
  const gained: [string, number][] = [];
  const lost: [string, number][] = [];
  for (const id of new Set([...before.items.keys(), ...after.items.keys()])) {
    const d = (after.items.get(id) ?? 0) - (before.items.get(id) ?? 0);
    if (d > 0) gained.push([id, d]);
    if (d < 0) lost.push([id, -d]);
  }
  const wore: string[] = [];
  const removed: string[] = [];
  for (const slot of new Set([...before.worn.keys(), ...after.worn.keys()])) {
    const was = before.worn.get(slot);
    const is = after.worn.get(slot);
    if (was === is) continue;
    if (is) wore.push(is);
    if (was) removed.push(was);
  }
  return { gained, lost, coins: after.coins - before.coins, wore, removed };
}

const isEmpty = (c: Change) =>
  c.gained.length + c.lost.length + c.wore.length + c.removed.length === 0 && c.coins === 0;

/** `2 × Raw minnow, 150 coins` */
function list(words: ItemWords, items: [string, number][], coins = 0): string {
  const parts = items.map(([id, n]) => (n > 1 ? `${n} × ${words.name(id)}` : words.name(id)));
  if (coins > 0) parts.push(`${coins} coins`);
  return parts.join(', ');
}

/** The sentences for one change. */
export function narrate(c: Change, cause: Cause, words: ItemWords): string[] {
  if (isEmpty(c) || cause.kind === 'quiet') return [];
  const out: string[] = [];
  // Wearing and taking off move items between the inventory and the equipment: told once, as such.
  const wornNow = new Set(c.wore);
  const offNow = new Set(c.removed);
  const lost = c.lost.filter(([id]) => !wornNow.has(id));
  const gained = c.gained.filter(([id]) => !offNow.has(id));
  for (const id of c.wore) out.push(`You equip the ${words.name(id)}.`);
  for (const id of c.removed) if (!c.wore.includes(id)) out.push(`You take off the ${words.name(id)}.`);
  const coinsIn = Math.max(0, c.coins);
  const coinsOut = Math.max(0, -c.coins);
  switch (cause.kind) {
    case 'buy':
      if (gained.length > 0) out.push(`You buy ${list(words, gained)} for ${coinsOut} coins.`);
      return out;
    case 'sell':
      if (lost.length > 0) out.push(`You sell ${list(words, lost)} for ${coinsIn} coins.`);
      return out;
    case 'quest':
      if (lost.length > 0) out.push(`You hand over ${list(words, lost)} to ${cause.giver}.`);
      if (gained.length > 0 || coinsIn > 0)
        out.push(`${cause.giver} gives you ${list(words, gained, coinsIn)}.`);
      return out;
    case 'pickup':
      if (gained.length > 0 || coinsIn > 0) out.push(`You pick up ${list(words, gained, coinsIn)}.`);
      return out;
    case 'drop':
      if (lost.length > 0) out.push(`You drop ${list(words, lost)}.`);
      return out;
    case 'gather':
      for (const [id, n] of gained)
        out.push(n > 1 ? `You get ${n} × ${words.name(id)}.` : `You get some ${words.name(id)}.`);
      return out;
    case 'make': {
      const burnt = gained.filter(([id]) => words.burnt(id));
      const made = gained.filter(([id]) => !words.burnt(id));
      for (const [id] of burnt) out.push(`You accidentally burn the food: ${words.name(id)}.`);
      if (made.length > 0) out.push(`You make ${list(words, made)}.`);
      if (gained.length === 0 && lost.length > 0)
        out.push(
          cause.fire
            ? `You light a fire with the ${list(words, lost)}.`
            : `You use up ${list(words, lost)} but make nothing this time.`,
        );
      if (coinsOut > 0) out.push(`It costs you ${coinsOut} coins.`);
      return out;
    }
    case 'use':
      for (const [id] of lost) {
        if (words.food(id)) out.push(`You eat the ${words.name(id)}.`);
        else if (words.bones(id)) out.push(`You bury the ${words.name(id)}.`);
      }
      if (out.length > 0 || gained.length === 0) return out;
      break;
  }
  if (gained.length > 0 || coinsIn > 0) out.push(`You receive ${list(words, gained, coinsIn)}.`);
  if (lost.length > 0 || coinsOut > 0) out.push(`You no longer have ${list(words, lost, coinsOut)}.`);
  return out;
}
