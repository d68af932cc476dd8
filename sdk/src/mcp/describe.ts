import type { ServerPayload } from '../protocol.generated.ts';
import type { WireEntity } from '../world-view.ts';
import type { GameSession } from './session.ts';

/**
 * The words the MCP tools and resources answer with: compact lines an LLM can act on, every entity with
 * its id (what the tools take as `target`), its manifest id in brackets, its tile, its distance and the
 * verbs it answers.
 */

type Sync = ServerPayload<'player:sync'>;

const dist = (s: GameSession, e: { x: number; z: number }) => s.game.world.distanceTo(e.x, e.z);

export function where(s: GameSession, x: number, z: number): string {
  const area = s.content.areaAt(x, z);
  return `${x},${z}${area ? ` (${area.name})` : ''}`;
}

/** One line about the own character. */
export function selfLine(s: GameSession): string {
  const me = s.game.world.self;
  const p = s.game.world.position;
  if (me === undefined || p === undefined) return 'You are not in the world yet.';
  const free = me.inventory.filter((i) => i === null).length;
  return `You: ${me.name} at ${where(s, p.x, p.z)}, health ${me.health}/${me.maxHealth}, combat level ${me.combatLevel}, ${me.coins} coins, ${free}/28 inventory slots free.`;
}

/** The verbs an entity answers, as far as the public content tells. */
export function verbsOf(s: GameSession, e: WireEntity): string[] {
  switch (e.type) {
    case 'npc':
      return s.content.npcs.get(e.npcId ?? '')?.verbs ?? ['talk'];
    case 'resource':
      return e.depleted ? [] : ['gather'];
    case 'item':
      return ['pickup'];
    case 'player':
      return ['trade'];
    case 'station':
      return e.stationType === 'bank' ? ['bank'] : e.stationType === 'altar' ? ['pray', 'use'] : ['use'];
    default:
      return [];
  }
}

/** What an entity is called: its name, else the name of its kind from the content. */
export function nameOf(s: GameSession, e: WireEntity): string {
  switch (e.type) {
    case 'resource':
      return s.content.resources.get(e.resourceId ?? '')?.name ?? e.resourceId ?? e.id;
    case 'item':
      return s.content.itemName(e.itemId ?? '');
    case 'station':
      return s.content.stations.get(e.stationType ?? '') ?? e.stationType ?? e.id;
    default:
      return e.name ?? e.npcId ?? e.id;
  }
}

/** One entity as a line: kind, name, [manifest id], id, tile, distance, verbs and what it offers. */
export function entityLine(s: GameSession, e: WireEntity): string {
  const d = dist(s, e);
  const verbs = verbsOf(s, e);
  let what: string;
  let extra = '';
  switch (e.type) {
    case 'npc':
      what = `npc ${e.name ?? e.npcId} [${e.npcId}] level ${e.level ?? '?'}`;
      if (e.health !== undefined && e.maxHealth !== undefined && e.health < e.maxHealth)
        extra = `, health ${e.health}/${e.maxHealth}`;
      break;
    case 'resource': {
      const r = s.content.resources.get(e.resourceId ?? '');
      what = `resource ${r?.name ?? e.resourceId} [${e.resourceId}]`;
      if (r) {
        const gives = r.yields.map((y) => `${s.content.itemName(y)} [${y}]`).join(', ');
        extra = `, ${r.skill} level ${r.level}${r.tool ? `, needs ${r.tool}` : ''}, gives ${gives}`;
      }
      if (e.depleted) extra += ', depleted for now';
      break;
    }
    case 'item':
      what = `item ${s.content.itemName(e.itemId ?? '')} [${e.itemId}] x${e.quantity ?? 1}`;
      break;
    case 'station':
      what = `station ${s.content.stations.get(e.stationType ?? '') ?? e.stationType} [${e.stationType}]`;
      break;
    default:
      what = `player ${e.name} (combat level ${e.level ?? '?'})`;
  }
  const verbText = verbs.length > 0 ? ` -> ${verbs.join(', ')}` : '';
  return `- ${what} id=${e.id} at ${e.x},${e.z}, ${d} tile${d === 1 ? '' : 's'} away${extra}${verbText}`;
}

/** What is in view, nearest first, optionally of one kind and within a radius. */
export function lookText(
  s: GameSession,
  opts: { kind?: string; radius?: number; limit?: number } = {},
): string {
  const limit = opts.limit ?? 30;
  const all = [...s.game.world.entities.values()]
    .filter((e) => opts.kind === undefined || e.type === opts.kind)
    .filter((e) => opts.radius === undefined || dist(s, e) <= opts.radius)
    .sort((a, b) => dist(s, a) - dist(s, b));
  const lines = [selfLine(s)];
  const busy = openInterfaces(s);
  if (busy) lines.push(busy);
  if (all.length === 0) lines.push('Nothing in view.');
  else {
    lines.push(`In view (${all.length}${all.length > limit ? `, nearest ${limit} shown` : ''}):`);
    for (const e of all.slice(0, limit)) lines.push(entityLine(s, e));
  }
  return lines.join('\n');
}

/** A line about an open dialogue, shop, bank or trade, if any. */
export function openInterfaces(s: GameSession): string | undefined {
  const open: string[] = [];
  if (s.dialogue) open.push(`a conversation with ${s.content.npcName(s.dialogue.npcId)} (see dialogue)`);
  if (s.shop) open.push(`the shop ${s.shop.name}`);
  if (s.trade) open.push(`a trade with ${s.trade.partnerName} (${s.trade.stage})`);
  return open.length > 0 ? `Open: ${open.join('; ')}.` : undefined;
}

export function dialogueText(s: GameSession, node: ServerPayload<'dialogue:node'>): string {
  const options = node.options.map((o) => `  [${o.id}] ${o.text}`).join('\n');
  return `${s.content.npcName(node.npcId)} says: "${node.text}"\n${
    node.options.length > 0
      ? `Answers (dialogue choose=<id>):\n${options}`
      : 'No answers: the conversation ends here.'
  }`;
}

export function inventoryText(s: GameSession, inv: Sync['inventory']): string {
  const held = inv.flatMap((i, slot) =>
    i
      ? [`${slot}: ${s.content.itemName(i.itemId)} [${i.itemId}]${i.quantity > 1 ? ` x${i.quantity}` : ''}`]
      : [],
  );
  return held.length > 0 ? held.join('; ') : 'empty';
}

export function itemsText(s: GameSession, items: Map<string, number>): string {
  const parts = [...items].map(([id, d]) => `${d > 0 ? '+' : ''}${d} ${s.content.itemName(id)}`);
  return parts.length > 0 ? parts.join(', ') : 'no items';
}

export function xpText(xp: Map<string, number>): string {
  return xp.size > 0
    ? [...xp].map(([skill, n]) => `+${Math.round(n * 10) / 10} ${skill} xp`).join(', ')
    : 'no xp';
}

/** The character sheet (resource `game://character`). */
export function characterSheet(s: GameSession): Record<string, unknown> {
  const me = s.game.world.self;
  const p = s.game.world.position;
  if (me === undefined) return { error: 'not in the world' };
  return {
    id: me.id,
    name: me.name,
    position: p,
    area: p ? (s.content.areaAt(p.x, p.z)?.name ?? null) : null,
    health: me.health,
    maxHealth: me.maxHealth,
    combatLevel: me.combatLevel,
    coins: me.coins,
    questPoints: me.questPoints,
    skills: me.skills,
    inventory: me.inventory.map((i, slot) =>
      i ? { slot, itemId: i.itemId, name: s.content.itemName(i.itemId), quantity: i.quantity } : null,
    ),
    equipment: Object.fromEntries(
      Object.entries(me.equipment).map(([slot, i]) => [
        slot,
        i ? { itemId: i.itemId, name: s.content.itemName(i.itemId), quantity: i.quantity } : null,
      ]),
    ),
    prayer: s.prayer ?? null,
  };
}

/** The map (resource `game://map`): areas and the known places in them. */
export function mapSheet(s: GameSession): Record<string, unknown> {
  return {
    spawn: s.content.spawn ?? null,
    areas: s.content.areas.map((a) => ({
      ...a,
      places: s.content.places
        .filter((p) => p.area === a.name)
        .map((p) => ({ kind: p.kind, id: p.id, name: p.name, x: p.x, z: p.z })),
    })),
    note: 'Places are where things stand or spawn; go_to takes a place id or name. Monsters wander around their place.',
  };
}
