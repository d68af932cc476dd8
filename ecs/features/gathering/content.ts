import { z } from 'zod';
import { defineContent, footprintRect } from '../../core/faces/content.ts';
import {
  chanceSchema,
  idSchema,
  levelSchema,
  nonNegInt,
  posInt,
} from '../../core/faces/manifest-primitives.ts';
import { normalizeSkill, type Skill } from '../../core/skills.ts';

/**
 * Gathering's content face: gathering/{woodcutting,mining,fishing}.json (resource nodes and what they
 * yield) and tools.json (which items are tools of which skill).
 */

const GATHERING_SKILLS = ['woodcutting', 'mining', 'fishing'] as const;

const yieldSchema = z.object({
  itemId: idSchema,
  quantity: posInt.default(1),
  chance: chanceSchema.default(1),
  xpAmount: z.number().min(0),
  levelRequired: levelSchema.optional(),
  /** Catch rate out of 256 at level 1 and at level 99 (fishing). */
  catchLow: z.number().min(0).max(256).optional(),
  catchHigh: z.number().min(0).max(256).optional(),
});

const nodeSchema = z.object({
  id: idSchema,
  name: z.string().min(1),
  type: z.string().min(1),
  modelPath: z.string().nullable().optional(),
  modelVariants: z.array(z.string()).optional(),
  harvestSkill: z.enum(GATHERING_SKILLS),
  /** An item id, or a tool class (`pickaxe`): any item whose id ends in `_pickaxe`. */
  toolRequired: idSchema,
  secondaryRequired: idSchema.optional(),
  levelRequired: levelSchema,
  baseCycleTicks: posInt,
  depleteChance: chanceSchema,
  respawnTicks: nonNegInt,
  harvestYield: z.array(yieldSchema).min(1),
  /** Our extension: the node (a fishing spot) moves every `moveTicks` ticks... */
  moveTicks: posInt.optional(),
  /** ...to another tile within `moveRadius` (default 3) of where the content put it. */
  moveRadius: posInt.optional(),
});

const toolsFileSchema = z.array(
  z.object({
    itemId: idSchema,
    skill: z.enum(GATHERING_SKILLS),
    tier: z.string().optional(),
    levelRequired: levelSchema,
    priority: z.number().int().min(0),
    rollTicks: posInt.optional(),
    /** Chance a cycle is `bonusRollTicks` long instead (dragon and crystal pickaxes). */
    bonusTickChance: z.number().min(0).max(1).optional(),
    bonusRollTicks: posInt.optional(),
  }),
);

type NodeDef = z.output<typeof nodeSchema>;

/** One possible yield of a gathering node (`harvestYield`). */
export interface HarvestYield {
  readonly itemId: string;
  readonly quantity: number;
  /** Chance this yield is given on a successful roll (1 = always). */
  readonly chance: number;
  readonly xp: number;
  /** Skill level needed for this yield (a fishing spot's better fish); 1 when the manifest says nothing. */
  readonly levelRequired: number;
  /** Catch rate out of 256 at level 1 and at level 99 (fishing), when the manifest gives them. */
  readonly catchLow: number | null;
  readonly catchHigh: number | null;
}

/** A tree, rock or fishing spot definition (gathering/*.json). */
export interface GatheringNode {
  readonly id: string;
  readonly name: string;
  readonly skill: Skill;
  /** An item id (any tool of its class counts) or a tool class (`pickaxe`). */
  readonly toolRequired: string;
  /** Consumed per catch (bait, feathers), or null. */
  readonly secondaryRequired: string | null;
  readonly levelRequired: number;
  readonly baseCycleTicks: number;
  readonly depleteChance: number;
  readonly respawnTicks: number;
  readonly yields: readonly HarvestYield[];
  /** Ticks between two moves of the node (a fishing spot); 0 = it stays. */
  readonly moveTicks: number;
  /** Tiles around its content position within which it moves. */
  readonly moveRadius: number;
}

/** A gathering tool (tools.json). A lower `priority` is a better tool. */
export interface ToolInfo {
  readonly itemId: string;
  readonly skill: Skill;
  /** `bronze`, `iron`...: a tool whose id is `<tier>_<class>` belongs to that class of tools. */
  readonly tier: string | null;
  readonly levelRequired: number;
  readonly priority: number;
  /** Ticks between two rolls with this tool, replacing the node's `baseCycleTicks`; null = the node's. */
  readonly rollTicks: number | null;
  /** Chance a cycle takes `bonusRollTicks` instead (dragon and crystal pickaxes). */
  readonly bonusTickChance: number;
  readonly bonusRollTicks: number | null;
}

declare module '../../core/content.ts' {
  interface ContentParts {
    /** Gathering node definitions by id (absent: nothing can be gathered). */
    gatheringNodes: ReadonlyMap<string, GatheringNode>;
    /** Gathering tools. */
    tools: readonly ToolInfo[];
  }
}

declare module '../../core/faces/content.ts' {
  interface IdSpaces {
    /** Trees, rocks and fishing spots (gathering/*.json), placed by world-areas.json `resources`. */
    resource: true;
  }
}

const NODE_FILES = [
  ['gathering/woodcutting.json', 'trees'],
  ['gathering/mining.json', 'rocks'],
  ['gathering/fishing.json', 'spots'],
] as const;

export const gatheringContent = defineContent({
  files: {
    'gathering/woodcutting.json': z.object({ trees: z.array(nodeSchema) }),
    'gathering/mining.json': z.object({ rocks: z.array(nodeSchema) }),
    'gathering/fishing.json': z.object({ spots: z.array(nodeSchema) }),
    'tools.json': toolsFileSchema,
  },
  docs: {
    'gathering/woodcutting.json':
      'Trees: `{ trees: [node] }`. A node: `{ id, name, type, modelPath?, harvestSkill, toolRequired (an item id, or a tool class: any item whose id ends in `_<class>`), secondaryRequired?, levelRequired, baseCycleTicks, depleteChance, respawnTicks, harvestYield: [{ itemId, quantity, chance, xpAmount, levelRequired?, catchLow?, catchHigh? }], moveTicks?, moveRadius? }`. Placed by world-areas.json `resources`; a placed node blocks its model footprint.',
    'gathering/mining.json': 'Rocks: `{ rocks: [node] }`, nodes as in woodcutting.json.',
    'gathering/fishing.json':
      'Fishing spots: `{ spots: [node] }`, nodes as in woodcutting.json; placed by an area `fishing` block (`spotTypes`, `positions?`).',
    'tools.json':
      'Gathering tools: `[{ itemId, skill, tier?, levelRequired, priority (lower is better), rollTicks?, bonusTickChance?, bonusRollTicks? }]`. A tool of an unknown item is ignored (a warning).',
  },
  defines: (d) => {
    const present = NODE_FILES.filter(([file]) => d[file] !== undefined);
    return present.length > 0 ? { resource: nodesOf(d).map((n) => n.id) } : {};
  },
  blocks: (d, ctx) => {
    const nodes = new Map(nodesOf(d).map((n) => [n.id, n]));
    return ctx.placements.resources.flatMap((r) => {
      const node = nodes.get(r.id);
      return node ? [footprintRect(r.x, r.z, ctx.footprint(node.modelPath ?? node.modelVariants?.[0]))] : [];
    });
  },
  check(d, ctx) {
    ctx.unique(
      'gathering/*.json',
      'resource',
      nodesOf(d).map((n) => n.id),
    );
    ctx.unique(
      'tools.json',
      'tool',
      (d['tools.json'] ?? []).map((t) => t.itemId),
    );
    const itemIds = [...ctx.itemIds()];
    for (const [file, key] of NODE_FILES) {
      const data = d[file] as Record<string, readonly NodeDef[]> | undefined;
      for (const node of data?.[key] ?? []) {
        const tool = node.toolRequired;
        if (!ctx.has('item', tool) && !itemIds.some((id) => id.endsWith(`_${tool}`)))
          ctx.problem(
            `${file}: node "${node.id}" toolRequired ("${tool}"): neither an item nor a tool class`,
          );
        if (node.secondaryRequired)
          ctx.item(file, `node "${node.id}" secondaryRequired`, node.secondaryRequired);
        for (const [i, y] of node.harvestYield.entries())
          ctx.item(file, `node "${node.id}" harvestYield[${i}]`, y.itemId, true);
      }
    }
    for (const [i, t] of (d['tools.json'] ?? []).entries())
      ctx.item('tools.json', `tool ${i}`, t.itemId, true);
  },
  build: (d, ctx) => ({
    gatheringNodes: new Map(nodesOf(d).map((n) => [n.id, gatheringNode(n)])),
    tools: (d['tools.json'] ?? []).flatMap((t) => {
      const skill = normalizeSkill(t.skill);
      if (!skill || !ctx.has('item', t.itemId)) return [];
      const info: ToolInfo = {
        itemId: t.itemId,
        skill,
        tier: t.tier ?? null,
        levelRequired: t.levelRequired,
        priority: t.priority,
        rollTicks: t.rollTicks ?? null,
        bonusTickChance: t.bonusTickChance ?? 0,
        bonusRollTicks: t.bonusRollTicks ?? null,
      };
      return [info];
    }),
  }),
});

/** Every node of the three files, in file order (trees, rocks, spots). */
function nodesOf(d: {
  readonly 'gathering/woodcutting.json'?: { trees: NodeDef[] } | undefined;
  readonly 'gathering/mining.json'?: { rocks: NodeDef[] } | undefined;
  readonly 'gathering/fishing.json'?: { spots: NodeDef[] } | undefined;
}): NodeDef[] {
  return [
    ...(d['gathering/woodcutting.json']?.trees ?? []),
    ...(d['gathering/mining.json']?.rocks ?? []),
    ...(d['gathering/fishing.json']?.spots ?? []),
  ];
}

function gatheringNode(def: NodeDef): GatheringNode {
  return Object.freeze({
    id: def.id,
    name: def.name,
    skill: def.harvestSkill,
    toolRequired: def.toolRequired,
    secondaryRequired: def.secondaryRequired ?? null,
    levelRequired: def.levelRequired,
    baseCycleTicks: def.baseCycleTicks,
    depleteChance: def.depleteChance,
    respawnTicks: def.respawnTicks,
    yields: def.harvestYield.map((y) => ({
      itemId: y.itemId,
      quantity: y.quantity,
      chance: y.chance,
      xp: y.xpAmount,
      levelRequired: y.levelRequired ?? 1,
      catchLow: y.catchLow ?? null,
      catchHigh: y.catchHigh ?? null,
    })),
    moveTicks: def.moveTicks ?? 0,
    moveRadius: def.moveRadius ?? 3,
  });
}
