import { z } from 'zod';
import { chanceSchema, idSchema, nonNegInt, posInt } from '../../ecs/core/faces/manifest-primitives.ts';

/** npcs.json: mobs and townsfolk. */

const dropSchema = z
  .object({
    itemId: idSchema,
    minQuantity: posInt.default(1),
    maxQuantity: posInt.default(1),
    chance: chanceSchema.default(1),
  })
  .refine((d) => d.minQuantity <= d.maxQuantity, {
    message: 'minQuantity exceeds maxQuantity',
    path: ['maxQuantity'],
  });

export const DROP_TIERS = ['always', 'common', 'uncommon', 'rare', 'veryRare'] as const;

const dropsSchema = z.object({
  defaultDrop: z.object({ enabled: z.boolean(), itemId: idSchema, quantity: posInt.default(1) }).optional(),
  always: z.array(dropSchema).default([]),
  common: z.array(dropSchema).default([]),
  uncommon: z.array(dropSchema).default([]),
  rare: z.array(dropSchema).default([]),
  veryRare: z.array(dropSchema).default([]),
});

const dialogueResponseSchema = z.object({
  text: z.string().min(1),
  nextNodeId: z.string().optional(),
  effect: z.string().optional(),
});

/** Where a conversation starts instead of `entryNodeId`, by the player's status in a quest. */
const questOverrideSchema = z.object({
  in_progress: z.string().min(1).optional(),
  ready_to_complete: z.string().min(1).optional(),
  completed: z.string().min(1).optional(),
});

export const dialogueSchema = z
  .object({
    entryNodeId: z.string().min(1),
    questOverrides: z.record(idSchema, questOverrideSchema).optional(),
    nodes: z
      .array(
        z.object({
          id: z.string().min(1),
          text: z.string(),
          responses: z.array(dialogueResponseSchema).optional(),
          /** Runs when the node is shown (e.g. `completeQuest:<questId>`). */
          effect: z.string().optional(),
        }),
      )
      .min(1),
  })
  .superRefine((d, ctx) => {
    const ids = new Set(d.nodes.map((n) => n.id));
    if (!ids.has(d.entryNodeId)) {
      ctx.addIssue({ code: 'custom', path: ['entryNodeId'], message: `no node "${d.entryNodeId}"` });
    }
    for (const [questId, o] of Object.entries(d.questOverrides ?? {})) {
      for (const [status, nodeId] of Object.entries(o)) {
        if (nodeId !== undefined && !ids.has(nodeId)) {
          ctx.addIssue({
            code: 'custom',
            path: ['questOverrides', questId, status],
            message: `no node "${nodeId}"`,
          });
        }
      }
    }
    d.nodes.forEach((n, i) => {
      n.responses?.forEach((r, j) => {
        if (r.nextNodeId !== undefined && !ids.has(r.nextNodeId)) {
          ctx.addIssue({
            code: 'custom',
            path: ['nodes', i, 'responses', j, 'nextNodeId'],
            message: `no node "${r.nextNodeId}"`,
          });
        }
      });
    });
  });

export const npcSchema = z.object({
  id: idSchema,
  name: z.string().min(1),
  description: z.string().optional(),
  category: z.enum(['mob', 'neutral', 'boss', 'quest']),
  stats: z.object({ level: posInt, health: posInt }).catchall(z.number()).default({ level: 1, health: 10 }),
  combat: z
    .object({
      attackable: z.boolean(),
      aggressive: z.boolean().default(false),
      retaliates: z.boolean().optional(),
      aggroRange: z.number().min(0).optional(),
      combatRange: z.number().min(0).optional(),
      leashRange: z.number().min(0).optional(),
      attackSpeedTicks: posInt.optional(),
      respawnTicks: nonNegInt.default(0),
      attackType: z.enum(['melee', 'ranged', 'magic']).optional(),
      spellId: idSchema.optional(),
      arrowId: idSchema.optional(),
    })
    .default({ attackable: false, aggressive: false, respawnTicks: 0 }),
  movement: z
    .object({ type: z.enum(['wander', 'stationary', 'patrol']), wanderRadius: z.number().min(0).default(0) })
    .default({ type: 'stationary', wanderRadius: 0 }),
  drops: dropsSchema.optional(),
  services: z
    .object({
      enabled: z.boolean(),
      types: z.array(z.enum(['bank', 'shop', 'quest', 'tanning'])).default([]),
      questIds: z.array(idSchema).default([]),
    })
    .optional(),
  dialogue: dialogueSchema.optional(),
});

export const npcsFileSchema = z.array(npcSchema);
export type NpcDef = z.infer<typeof npcSchema>;
