import type { DialogueNode, DialogueTree, NpcInfo, SimContent } from '../../ecs/core/content.ts';
import { defineFeature, defineState } from '../../ecs/core/feature.ts';
import type { GameWorld } from '../../ecs/core/world.ts';
import type { QuestInfo } from '../../ecs/features/quests/content.ts';
import { shopContent } from './shop-content.ts';
import { TEST_NPCS } from './sim-content.ts';

/**
 * Test content for dialogue and quests, on top of the shop test content (spawn (100, 100); npc-1 keeps
 * `general` at (102, 100), npc-2 `limited` at (100, 110), npc-3 is a banker at (97, 104)). Added:
 * npc-4 Warden at (100, 98) gives `hunt`; npc-5 Angler at (98, 100) gives `fish` (needs `hunt`);
 * npc-6 Mute at (104, 104) has nothing to say.
 */

const tree = (entry: string, nodes: DialogueNode[], questOverrides: DialogueTree['questOverrides'] = []) => ({
  entryNodeId: entry,
  nodes: new Map(nodes.map((n) => [n.id, n])),
  questOverrides,
});

export const TEST_DIALOGUES: ReadonlyMap<string, DialogueTree> = new Map<string, DialogueTree>([
  [
    'shopkeeper',
    tree('hi', [
      {
        id: 'hi',
        text: 'Buying?',
        responses: [
          { text: 'Show me.', nextNodeId: 'shown', effect: 'openStore' },
          { text: 'A gift?', nextNodeId: 'gift', effect: 'giveItem:feather:5' },
          { text: 'Bye.' },
        ],
      },
      { id: 'shown', text: 'Take your time.', responses: [] },
      { id: 'gift', text: 'Have some feathers.', responses: [{ text: 'Thanks.' }] },
    ]),
  ],
  [
    'banker',
    tree('hi', [
      { id: 'hi', text: 'Bank?', responses: [{ text: 'Open it.', nextNodeId: 'open', effect: 'openBank' }] },
      { id: 'open', text: 'There.', responses: [] },
    ]),
  ],
  [
    'warden',
    tree(
      'hi',
      [
        {
          id: 'hi',
          text: 'Goblins everywhere.',
          responses: [
            { text: 'I will help.', nextNodeId: 'go', effect: 'startQuest:hunt' },
            { text: 'Tanning?', effect: 'openTanner' },
          ],
        },
        { id: 'go', text: 'Kill three.', responses: [] },
        { id: 'progress', text: 'Still goblins about.', responses: [{ text: 'On it.' }] },
        { id: 'done', text: 'Well fought!', responses: [], effect: 'completeQuest:hunt' },
        { id: 'after', text: 'Peaceful now.', responses: [] },
      ],
      [{ questId: 'hunt', inProgress: 'progress', readyToComplete: 'done', completed: 'after' }],
    ),
  ],
  [
    'angler',
    tree('hi', [
      {
        id: 'hi',
        text: 'Fish?',
        responses: [{ text: 'Sure.', nextNodeId: 'go', effect: 'startQuest:fish' }],
      },
      { id: 'go', text: 'Two shrimp.', responses: [] },
    ]),
  ],
]);

export const TEST_QUESTS: readonly QuestInfo[] = [
  {
    id: 'hunt',
    name: 'The Hunt',
    replayable: false,
    startNpc: 'warden',
    requiredQuests: [],
    requiredSkills: {},
    stages: [
      { id: 'start', type: 'dialogue', description: 'Talk to the warden', npcId: 'warden', count: 1 },
      { id: 'kill', type: 'kill', description: 'Kill 3 goblins', target: 'goblin', count: 3 },
      { id: 'report', type: 'dialogue', description: 'Report back', npcId: 'warden', count: 1 },
    ],
    onStartItems: [{ itemId: 'bronze_sword', quantity: 1 }],
    rewardItems: [
      { itemId: 'quest_medal', quantity: 1 },
      { itemId: 'coins', quantity: 100 },
    ],
    rewardXp: { attack: 500 },
    rewardQuestPoints: 1,
  },
  {
    id: 'fish',
    name: 'Fish Supper',
    replayable: false,
    startNpc: 'angler',
    requiredQuests: ['hunt'],
    requiredSkills: { fishing: 1 },
    stages: [
      { id: 'start', type: 'dialogue', description: 'Talk to the angler', npcId: 'angler', count: 1 },
      { id: 'catch', type: 'gather', description: 'Catch 2 shrimp', target: 'shrimp', count: 2 },
      { id: 'cook', type: 'interact', description: 'Make a fire', target: 'logs', count: 1 },
      {
        id: 'give',
        type: 'deliver',
        description: 'Give 2 shrimp',
        npcId: 'angler',
        target: 'shrimp',
        count: 2,
      },
    ],
    onStartItems: [],
    rewardItems: [{ itemId: 'feather', quantity: 10 }],
    rewardXp: { fishing: 200, cooking: 100 },
    rewardQuestPoints: 2,
  },
  {
    id: 'skilled',
    name: 'For Experts',
    replayable: false,
    startNpc: 'warden',
    requiredQuests: [],
    requiredSkills: { mining: 30 },
    stages: [{ id: 'only', type: 'dialogue', description: 'Talk', npcId: 'warden', count: 1 }],
    onStartItems: [],
    rewardItems: [],
    rewardXp: {},
    rewardQuestPoints: 1,
  },
];

export function questContent(): SimContent {
  const base = shopContent();
  const npc = (id: string, name: string): NpcInfo => ({ ...(TEST_NPCS[1] as NpcInfo), id, name });
  return {
    ...base,
    npcs: new Map([
      ...base.npcs,
      ['warden', npc('warden', 'Warden')],
      ['angler', npc('angler', 'Angler')],
      ['mute', npc('mute', 'Mute')],
    ]),
    npcSpawns: [
      ...base.npcSpawns,
      { npcId: 'warden', x: 100, z: 98, count: 1, radius: 0, service: 'quest' },
      { npcId: 'angler', x: 98, z: 100, count: 1, radius: 0, service: 'quest' },
      { npcId: 'mute', x: 104, z: 104, count: 1, radius: 0 },
    ],
    dialogues: TEST_DIALOGUES,
    quests: new Map(TEST_QUESTS.map((q) => [q.id, q])),
  };
}

/**
 * A probe feature for tests: what combat, gathering and processing report (npcKilled, itemGathered, itemMade) is queued
 * here by a test and dispatched inside the next tick, so the events land in that tick's log.
 */
export const PROBE = defineState('questProbe', () => ({ queue: [] as ((world: GameWorld) => void)[] }));
export const probe = defineFeature({
  name: 'questProbe',
  state: PROBE,
  systems: [
    {
      name: 'questProbe',
      phase: 'combat',
      run: (world) => {
        for (const f of world.get(PROBE).queue.splice(0)) f(world);
      },
    },
  ],
});
