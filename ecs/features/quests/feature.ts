import { defineFeature } from '../../core/feature.ts';
import type { Hasher } from '../../core/hasher.ts';
import type { GameWorld } from '../../core/world.ts';
import { inventory } from '../inventory/index.ts';
import { npcs } from '../npcs/index.ts';
import { questsContent } from './content.ts';
import {
  handleQuestList,
  handleQuestStart,
  onItemGathered,
  onItemMade,
  onLeave,
  onNpcKilled,
  questsSystem,
} from './quests.ts';
import { QUESTS } from './state.ts';
import { questsWire } from './wire.ts';

/** Quests: requirements, stages counted from kills, gathering, talks and deliveries, rewards. */
export const quests = defineFeature({
  name: 'quests',
  state: QUESTS,
  commands: { questStart: handleQuestStart, questList: handleQuestList },
  systems: [{ name: 'questRewards', phase: 'interactions', run: questsSystem }],
  on: { npcKilled: onNpcKilled, itemGathered: onItemGathered, itemMade: onItemMade, leave: onLeave },
  hash: hashQuests,
  uses: [npcs, inventory],
  wire: questsWire,
  content: questsContent,
});

function hashQuests(world: GameWorld, h: Hasher): void {
  for (const p of world.players.values()) {
    const q = p.state.slices?.quests;
    if (!q) continue;
    h.str(p.characterId);
    h.json(q);
  }
  for (const id of world.get(QUESTS).rewardsDue) h.str(id);
}
