import type { QuestView } from './wire.ts';

/**
 * Quest knowledge for the player: which quests are open to start now, the words of a quest's current
 * step, which NPCs to mark, and the one-line "what to do" hint. Pure: the quest definitions (cut down
 * from quests.json at build time) are passed in.
 */

export interface QuestDef {
  name: string;
  startNpc: string;
  quests: string[];
  skills: Record<string, number>;
  stages: { id: string; description: string; npcId?: string }[];
}

export type QuestDefs = Record<string, QuestDef>;
type Levels = Record<string, { level: number } | undefined>;

/** Not started, every required quest done, every required level reached. */
export function canStart(defs: QuestDefs, id: string, list: QuestView[], skills: Levels): boolean {
  const def = defs[id];
  const view = list.find((q) => q.questId === id);
  if (!def || !view || view.status !== 'not_started') return false;
  const done = (q: string) => list.find((v) => v.questId === q)?.status === 'completed';
  const level = (s: string) => skills[s]?.level ?? skills[s === 'defence' ? 'defense' : s]?.level ?? 1;
  return def.quests.every(done) && Object.entries(def.skills).every(([s, l]) => level(s) >= l);
}

/** `Defeat 5 thornback boars (2/5)`: the current stage in the content's words. */
export function stepLine(
  defs: QuestDefs,
  q: Pick<QuestView, 'questId' | 'stageId' | 'progress' | 'count' | 'status'>,
): string {
  if (q.status === 'completed') return 'Completed';
  if (q.status === 'not_started') return 'Not started';
  const stage = defs[q.questId]?.stages.find((s) => s.id === q.stageId);
  const words = stage?.description ?? q.stageId.replace(/_/g, ' ');
  return q.count > 0 ? `${words} (${q.progress}/${q.count})` : words;
}

/** How an NPC is marked: a quest to start (`available`), a step of a quest in progress with it (`step`). */
export function npcQuestMark(
  defs: QuestDefs,
  npcId: string,
  list: QuestView[],
  skills: Levels,
): 'available' | 'step' | null {
  for (const [id, def] of Object.entries(defs)) {
    if (def.startNpc === npcId && canStart(defs, id, list, skills)) return 'available';
  }
  for (const q of list) {
    if (q.status !== 'in_progress') continue;
    const stage = defs[q.questId]?.stages.find((s) => s.id === q.stageId);
    if (stage?.npcId === npcId) return 'step';
  }
  return null;
}

/** `north-east`, `west`... from (fromX, fromZ) to (x, z); north is +z. */
export function direction(fromX: number, fromZ: number, x: number, z: number): string {
  const dx = x - fromX;
  const dz = z - fromZ;
  if (Math.max(Math.abs(dx), Math.abs(dz)) <= 1) return 'right here';
  const ns = dz > Math.abs(dx) / 2 ? 'north' : dz < -Math.abs(dx) / 2 ? 'south' : '';
  const ew = dx > Math.abs(dz) / 2 ? 'east' : dx < -Math.abs(dz) / 2 ? 'west' : '';
  return ns && ew ? `${ns}-${ew}` : ns || ew;
}

export interface Hint {
  text: string;
  /** Where it points (an NPC's tile), when it points somewhere. */
  target?: { x: number; z: number; npcId: string };
}

/**
 * The next thing to do: the nearest NPC with a quest to start; else the step of a quest in progress
 * (pointing at its NPC when the step is with one); else nothing.
 */
export function nextHint(
  defs: QuestDefs,
  list: QuestView[],
  skills: Levels,
  me: { x: number; z: number },
  npcAt: (npcId: string) => { x: number; z: number } | undefined,
  npcName: (npcId: string) => string,
): Hint | null {
  const starts = Object.entries(defs)
    .filter(([id]) => canStart(defs, id, list, skills))
    .flatMap(([id, def]) => {
      const at = npcAt(def.startNpc);
      return at ? [{ id, def, at, d: Math.max(Math.abs(at.x - me.x), Math.abs(at.z - me.z)) }] : [];
    })
    .sort((a, b) => a.d - b.d);
  const first = starts[0];
  const progress = list.find((q) => q.status === 'in_progress');
  if (progress) {
    const stage = defs[progress.questId]?.stages.find((s) => s.id === progress.stageId);
    const name = defs[progress.questId]?.name ?? progress.questId;
    const step = stepLine(defs, progress);
    const at = stage?.npcId ? npcAt(stage.npcId) : undefined;
    if (stage?.npcId && at) {
      return {
        text: `${name}: ${step} (${npcName(stage.npcId)} is ${direction(me.x, me.z, at.x, at.z)}).`,
        target: { ...at, npcId: stage.npcId },
      };
    }
    return { text: `${name}: ${step}.` };
  }
  if (first) {
    const who = npcName(first.def.startNpc);
    return {
      text: `What to do: talk to ${who} (marked !, ${direction(me.x, me.z, first.at.x, first.at.z)}) to start ${first.def.name}.`,
      target: { ...first.at, npcId: first.def.startNpc },
    };
  }
  return null;
}
