import { defineFeature } from '../../core/feature.ts';
import type { Hasher } from '../../core/hasher.ts';
import type { GameWorld } from '../../core/world.ts';
import { inventory } from '../inventory/index.ts';
import { npcs } from '../npcs/index.ts';
import { quests } from '../quests/index.ts';
import {
  dialogueSystem,
  handleDialogueChoose,
  handleDialogueClose,
  onActionStarted,
  onDeath,
  onInterfaceOpened,
  onLeave,
  talk,
} from './dialogue.ts';
import { DIALOGUE } from './state.ts';
import { dialogueWire } from './wire.ts';

/** NPC dialogue: nodes, options, their effects (bank, shop, quests, items), closing. */
export const dialogue = defineFeature({
  name: 'dialogue',
  state: DIALOGUE,
  commands: { dialogueChoose: handleDialogueChoose, dialogueClose: handleDialogueClose },
  actions: { talk: { reach: 1, run: talk } },
  systems: [{ name: 'dialogue', phase: 'interactions', run: dialogueSystem }],
  on: { interfaceOpened: onInterfaceOpened, actionStarted: onActionStarted, leave: onLeave, death: onDeath },
  hash: hashDialogue,
  uses: [npcs, inventory, quests],
  wire: dialogueWire,
});

function hashDialogue(world: GameWorld, h: Hasher): void {
  for (const [id, open] of world.get(DIALOGUE).open) {
    h.str(id);
    h.str(open.entityId);
    h.str(open.nodeId);
  }
}
