import { z } from 'zod';
import type { ItemStack } from '../../core/character-state.ts';
import { defineContent } from '../../core/faces/content.ts';
import {
  idSchema,
  itemAmountSchema,
  nonNegInt,
  posInt,
  skillLevelsSchema,
} from '../../core/faces/manifest-primitives.ts';
import { normalizeSkill, type Skill } from '../../core/skills.ts';

/** The quests' content face: quests.json (stages, requirements, rewards) and its checks. */

/** What a quest stage asks for. */
export const QUEST_STAGE_KINDS = ['dialogue', 'kill', 'gather', 'interact', 'deliver'] as const;

const stageSchema = z.object({
  id: z.string().min(1),
  type: z.enum(QUEST_STAGE_KINDS),
  description: z.string().min(1),
  npcId: idSchema.optional(),
  target: idSchema.optional(),
  count: posInt.optional(),
});

export const questSchema = z.object({
  id: idSchema,
  name: z.string().min(1),
  description: z.string().min(1),
  difficulty: z.enum(['novice', 'intermediate', 'experienced', 'master']),
  questPoints: nonNegInt,
  replayable: z.boolean().default(false),
  requirements: z
    .object({ quests: z.array(idSchema).default([]), skills: skillLevelsSchema.default({}) })
    .optional(),
  startNpc: idSchema,
  stages: z.array(stageSchema).min(1),
  onStart: z.object({ items: z.array(itemAmountSchema).default([]) }).optional(),
  rewards: z.object({
    questPoints: nonNegInt.default(0),
    items: z.array(itemAmountSchema).default([]),
    xp: z.record(z.string(), z.number().min(0)).default({}),
  }),
});

/** quests.json is an object keyed by quest id. */
export const questsFileSchema = z.record(z.string(), questSchema).superRefine((quests, ctx) => {
  for (const [key, q] of Object.entries(quests)) {
    if (q.id !== key)
      ctx.addIssue({ code: 'custom', path: [key, 'id'], message: `id "${q.id}" differs from its key` });
  }
});

type QuestDef = z.output<typeof questSchema>;

export type QuestStageKind = (typeof QUEST_STAGE_KINDS)[number];

export interface QuestStage {
  readonly id: string;
  readonly type: QuestStageKind;
  readonly description: string;
  readonly npcId?: string | undefined;
  readonly target?: string | undefined;
  /** How many kills/items/actions complete the stage (1 for dialogue). */
  readonly count: number;
}

export interface QuestInfo {
  readonly id: string;
  readonly name: string;
  readonly replayable: boolean;
  readonly startNpc: string;
  readonly requiredQuests: readonly string[];
  readonly requiredSkills: Readonly<Partial<Record<Skill, number>>>;
  readonly stages: readonly QuestStage[];
  readonly onStartItems: readonly ItemStack[];
  readonly rewardItems: readonly ItemStack[];
  readonly rewardXp: Readonly<Partial<Record<Skill, number>>>;
  readonly rewardQuestPoints: number;
}

declare module '../../core/content.ts' {
  interface ContentParts {
    /** Quests by id (quests.json). */
    quests: ReadonlyMap<string, QuestInfo>;
  }
}

declare module '../../core/faces/content.ts' {
  interface IdSpaces {
    /** Quests, named by NPC services (npcs.json) and other quests' requirements. */
    quest: true;
  }
}

export const questsContent = defineContent({
  files: { 'quests.json': questsFileSchema },
  docs: {
    'quests.json':
      'Quests keyed by id: `{ <id>: { id, name, description, difficulty, questPoints, replayable?, requirements?: { quests, skills }, startNpc, stages: [{ id, type (dialogue, kill, gather, interact, deliver), description, npcId?, target?, count? }], onStart?: { items }, rewards: { questPoints, items, xp } } }`. The dialogue that gives and completes a quest lives in npcs.json.',
  },
  defines: (d) => (d['quests.json'] ? { quest: Object.keys(d['quests.json']) } : {}),
  check(d, ctx) {
    for (const q of Object.values(d['quests.json'] ?? {})) {
      const at = `quests.json: quest "${q.id}"`;
      if (!ctx.has('npc', q.startNpc)) ctx.problem(`${at} startNpc ("${q.startNpc}"): unknown npc`);
      for (const [i, s] of q.stages.entries()) {
        if (s.npcId && !ctx.has('npc', s.npcId))
          ctx.problem(`${at} stages[${i}] npcId ("${s.npcId}"): unknown npc`);
      }
      for (const [i, r] of q.rewards.items.entries())
        ctx.item('quests.json', `quest "${q.id}" rewards.items[${i}]`, r.itemId);
      for (const [i, r] of (q.onStart?.items ?? []).entries())
        ctx.item('quests.json', `quest "${q.id}" onStart.items[${i}]`, r.itemId, true);
      for (const [i, r] of (q.requirements?.quests ?? []).entries()) {
        if (!ctx.has('quest', r)) ctx.problem(`${at} requirements.quests[${i}] ("${r}"): unknown quest`);
      }
    }
  },
  build: (d) => ({
    quests: new Map(Object.values(d['quests.json'] ?? {}).map((q) => [q.id, questInfo(q)])),
  }),
});

function skillMap(rec: Record<string, number> | undefined): Partial<Record<Skill, number>> {
  const out: Partial<Record<Skill, number>> = {};
  for (const [name, v] of Object.entries(rec ?? {})) {
    const skill = normalizeSkill(name);
    if (skill) out[skill] = v;
  }
  return out;
}

function questInfo(def: QuestDef): QuestInfo {
  return Object.freeze({
    id: def.id,
    name: def.name,
    replayable: def.replayable,
    startNpc: def.startNpc,
    requiredQuests: def.requirements?.quests ?? [],
    requiredSkills: skillMap(def.requirements?.skills),
    stages: def.stages.map((st) =>
      Object.freeze({
        id: st.id,
        type: st.type,
        description: st.description,
        npcId: st.npcId,
        target: st.target,
        count: st.count ?? 1,
      }),
    ),
    onStartItems: def.onStart?.items ?? [],
    rewardItems: def.rewards.items,
    rewardXp: skillMap(def.rewards.xp),
    rewardQuestPoints: def.rewards.questPoints || def.questPoints,
  });
}
