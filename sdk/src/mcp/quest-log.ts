import { questList } from '../activities/interact.ts';
import type { GameSession } from './session.ts';

/**
 * The quest log: every quest of the world with the character's status, read fresh from the server
 * (`quest:list`), joined with the quest's stages from the public content so each current stage says
 * what to do (`type`: dialogue, gather, kill, interact, deliver), with whom (`npc`), on what (`target`)
 * and where it can be done (`where`: known places of that NPC or of the resources that yield the item).
 */

export interface QuestStageView {
  id: string;
  index: number;
  of: number;
  type: string;
  description: string;
  npc?: { id: string; name: string };
  target?: { id: string; name: string };
  progress: number;
  count: number;
  where: { kind: string; id: string; name: string; x: number; z: number; note?: string }[];
}

export interface QuestView {
  id: string;
  name: string;
  status: 'not_started' | 'in_progress' | 'completed';
  description: string;
  start: { npc: string; name: string };
  requirements: string[];
  rewards: string;
  stage: QuestStageView | null;
}

export interface QuestLog {
  questPoints: number;
  quests: QuestView[];
}

export async function readQuestLog(s: GameSession): Promise<QuestLog> {
  const r = await questList(s.game);
  if (r.status !== 'done') throw new Error(`the server did not answer quest:list (${r.status})`);
  const here = s.game.world.position;
  const d = (p: { x: number; z: number }) =>
    here === undefined ? 0 : Math.max(Math.abs(p.x - here.x), Math.abs(p.z - here.z));
  const placesOf = (kind: string, id: string, note?: string) =>
    s.content.places
      .filter((p) => p.kind === kind && p.id === id)
      .sort((a, b) => d(a) - d(b))
      .slice(0, 3)
      .map((p) => ({ kind: p.kind, id: p.id, name: p.name, x: p.x, z: p.z, ...(note ? { note } : {}) }));
  const quests = r.list.quests.map((q): QuestView => {
    const info = s.content.quests.get(q.questId);
    const index = info?.stages.findIndex((st) => st.id === q.stageId) ?? -1;
    const st = index >= 0 ? info?.stages[index] : undefined;
    let stage: QuestStageView | null = null;
    if (q.status === 'in_progress') {
      const where =
        st?.npcId !== undefined
          ? placesOf('npc', st.npcId)
          : st?.type === 'kill' && st.target !== undefined
            ? placesOf('monsters', st.target)
            : st?.type === 'gather' && st.target !== undefined
              ? s.content
                  .sourcesOf(st.target)
                  .flatMap((src) =>
                    placesOf(
                      'resource',
                      src.id,
                      `${src.skill} level ${src.level}${src.tool ? `, needs ${src.tool}` : ''}`,
                    ),
                  )
              : [];
      const targetName =
        st?.target === undefined
          ? undefined
          : st.type === 'kill'
            ? s.content.npcName(st.target)
            : s.content.itemName(st.target);
      stage = {
        id: q.stageId,
        index: index + 1,
        of: info?.stages.length ?? 0,
        type: st?.type ?? 'unknown',
        description: st?.description ?? q.stageId,
        ...(st?.npcId !== undefined ? { npc: { id: st.npcId, name: s.content.npcName(st.npcId) } } : {}),
        ...(st?.target !== undefined && targetName !== undefined
          ? { target: { id: st.target, name: targetName } }
          : {}),
        progress: q.progress,
        count: q.count,
        where,
      };
    }
    return {
      id: q.questId,
      name: q.name,
      status: q.status,
      description: info?.description ?? '',
      start: { npc: info?.startNpc ?? '', name: s.content.npcName(info?.startNpc ?? '') },
      requirements: [
        ...(info?.requiredQuests ?? []).map((id) => `quest ${s.content.quests.get(id)?.name ?? id}`),
        ...Object.entries(info?.requiredSkills ?? {}).map(([skill, level]) => `${skill} level ${level}`),
      ],
      rewards: info?.rewards ?? '',
      stage,
    };
  });
  return { questPoints: r.list.questPoints, quests };
}

export function questLogText(log: QuestLog): string {
  const lines = [`Quest points: ${log.questPoints}.`];
  for (const q of log.quests) {
    const head = `- ${q.name} [${q.id}]: ${q.status.replace('_', ' ')}`;
    if (q.status === 'not_started') {
      const req = q.requirements.length > 0 ? `; needs ${q.requirements.join(', ')}` : '';
      lines.push(
        `${head}. Start: talk to ${q.start.name} [${q.start.npc}] (quests start=${q.id})${req}. ${q.description}`,
      );
    } else if (q.status === 'completed' || q.stage === null) lines.push(`${head}.`);
    else {
      const st = q.stage;
      const where = st.where
        .map((w) => `${w.name} at ${w.x},${w.z}${w.note ? ` (${w.note})` : ''}`)
        .join('; ');
      lines.push(
        `${head}, stage ${st.index}/${st.of} "${st.description}" (${st.type}${st.count > 1 ? `, ${st.progress}/${st.count}` : ''})${
          where ? `. Where: ${where}` : ''
        }.`,
      );
    }
  }
  return lines.join('\n');
}
