import type { GameWorld, PlayerData } from '../../core/world.ts';
import { countItem } from '../inventory/index.ts';
import type { GatheringNode, ToolInfo } from './content.ts';
import { GATHERING } from './state.ts';

/**
 * Which tools a node accepts, and the best one a player can use. `toolRequired` is either a tool's item
 * id or a class of tools:
 * - a tiered tool (`bronze_hatchet`: its id is `<tier>_<class>`) accepts every tool of that skill and
 *   class (`iron_hatchet`, `rune_hatchet`...);
 * - another tool item (`small_fishing_net`) accepts exactly that item;
 * - a class (`pickaxe`) accepts every tool of the skill whose id ends in `_pickaxe`.
 * An item named but absent from tools.json still counts as a tool of its own (priority 0, no speed-up).
 * The best tool is the one with the lowest `priority` the player owns (inventory or worn) and may use.
 */
export function acceptedTools(world: GameWorld, node: GatheringNode): readonly ToolInfo[] {
  const cache = world.get(GATHERING).accepted;
  let accepted = cache.get(node.id);
  if (!accepted) {
    accepted = findAccepted(world, node);
    cache.set(node.id, accepted);
  }
  return accepted;
}

function findAccepted(world: GameWorld, node: GatheringNode): ToolInfo[] {
  const tools = (world.content.tools ?? []).filter((t) => t.skill === node.skill);
  const req = node.toolRequired;
  const exact = tools.find((t) => t.itemId === req);
  let accepted: ToolInfo[];
  if (exact) {
    const cls = classOf(exact);
    accepted = cls === null ? [exact] : tools.filter((t) => classOf(t) === cls);
  } else {
    accepted = tools.filter((t) => t.itemId === req || t.itemId.endsWith(`_${req}`));
    if (accepted.length === 0 && world.content.items.has(req)) {
      accepted = [
        {
          itemId: req,
          skill: node.skill,
          tier: null,
          levelRequired: 1,
          priority: 0,
          rollTicks: null,
          bonusTickChance: 0,
          bonusRollTicks: null,
        },
      ];
    }
  }
  return accepted.sort((a, b) => a.priority - b.priority || (a.itemId < b.itemId ? -1 : 1));
}

function classOf(t: ToolInfo): string | null {
  return t.tier && t.itemId.startsWith(`${t.tier}_`) ? t.itemId.slice(t.tier.length + 1) : null;
}

/** Whether the player holds an item in the inventory or wears it. */
export function owns(player: PlayerData, itemId: string): boolean {
  if (countItem(player.state.inventory, itemId) > 0) return true;
  for (const s of Object.values(player.state.equipment)) if (s?.itemId === itemId) return true;
  return false;
}

export type ToolChoice =
  | { ok: true; tool: ToolInfo; rank: number }
  | { ok: false; code: 'MISSING_TOOL' | 'LEVEL_TOO_LOW'; message: string };

/**
 * The best accepted tool the player owns and has the level for. `rank`: how many accepted tools are
 * worse than it (0 for the worst), the tool's share of the success chance.
 */
export function bestTool(world: GameWorld, player: PlayerData, node: GatheringNode): ToolChoice {
  const accepted = acceptedTools(world, node);
  const level = player.state.skills[node.skill].level;
  let tooHigh: ToolInfo | null = null;
  for (const tool of accepted) {
    if (!owns(player, tool.itemId)) continue;
    if (tool.levelRequired > level) {
      tooHigh ??= tool;
      continue;
    }
    let rank = 0;
    for (const t of accepted) if (t.priority > tool.priority) rank++;
    return { ok: true, tool, rank };
  }
  if (tooHigh) {
    return {
      ok: false,
      code: 'LEVEL_TOO_LOW',
      message: `${skillName(node.skill)} level ${tooHigh.levelRequired} required to use ${itemName(world, tooHigh.itemId)}`,
    };
  }
  const name = accepted[0] ? itemName(world, accepted[0].itemId) : node.toolRequired;
  return { ok: false, code: 'MISSING_TOOL', message: `You need ${article(name)} to gather from this.` };
}

export function itemName(world: GameWorld, itemId: string): string {
  return world.content.items.get(itemId)?.name ?? itemId;
}

export function skillName(skill: string): string {
  return skill.charAt(0).toUpperCase() + skill.slice(1);
}

function article(name: string): string {
  return /^[aeiou]/i.test(name) ? `an ${name}` : `a ${name}`;
}
