import { z } from 'zod';
import { clientEvent, command, defineWire, serverEvent } from '../../core/faces/wire.ts';

/** The dialogue's wire face: answering and closing a conversation, the NPC's lines, and the `talk` verb. */

export const dialogueNode = z.object({
  npcId: z.string(),
  entityId: z.string(),
  nodeId: z.string(),
  text: z.string(),
  options: z.array(z.object({ id: z.string(), text: z.string() })),
});
export const dialogueClose = z.object({});

export const dialogueWire = defineWire({
  client: {
    'dialogue:choose': clientEvent({
      schema: z.object({ optionId: z.union([z.string().min(1).max(16), z.number().int().min(0).max(999)]) }),
      doc: "Answer the open dialogue node with one of its options' `id`. The option's effect runs on the server (open the bank or the NPC's shop, start a quest, give an item), then the next node is sent (`dialogue:node`) or the conversation ends (`dialogue:close`). No conversation open or no such option: `NOT_FOUND`.",
      translate: (base, p) => command({ ...base, type: 'dialogueChoose', optionId: String(p.optionId) }),
    }),
    'dialogue:close': clientEvent({
      schema: z.object({}),
      doc: 'End the conversation.',
      translate: (base) => command({ ...base, type: 'dialogueClose' }),
    }),
  },
  server: {
    'dialogue:node': serverEvent({
      schema: dialogueNode,
      doc: 'What the NPC says (`npcId` its manifest id, `entityId` its wire id) and the answers offered (`options`, ids `"0"`, `"1"`, ...). Sent when a `talk` opens the conversation and after each `dialogue:choose` that leads to another node.',
      from: 'dialogueNode',
    }),
    'dialogue:close': serverEvent({
      schema: dialogueClose,
      doc: 'The conversation ended: an option without a next node, walking more than 2 tiles from the NPC, another interface or action, death.',
      from: 'dialogueClose',
    }),
  },
  verbs: {
    talk: 'to an NPC (reach 1; opens its dialogue: `dialogue:node`; an NPC with nothing to say is `INVALID_TARGET`)',
  },
});
