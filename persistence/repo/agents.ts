import { z } from 'zod';
import type { AgentGoalRow, AgentMappingRow, AgentMessageRow } from '../port.ts';
import type { SqlClient } from '../sql.ts';
import { ignoreQuarantine, type OnQuarantine, readStoredJson } from '../stored-json.ts';

/** agent_mappings, agent_goals and agent_messages (migrations 001 and 007). */

const toMapping = (r: Record<string, unknown>): AgentMappingRow => ({
  agentId: String(r['agentId']),
  accountId: String(r['accountId']),
  characterId: String(r['characterId']),
  name: String(r['name'] ?? ''),
  createdAt: r['createdAt'] as Date,
});

export async function createAgentMapping(
  db: SqlClient,
  m: Omit<AgentMappingRow, 'createdAt'>,
): Promise<AgentMappingRow> {
  const [row] = await db.query(
    `INSERT INTO agent_mappings ("agentId", "accountId", "characterId", name)
     VALUES ($1, $2, $3, $4) RETURNING *`,
    [m.agentId, m.accountId, m.characterId, m.name],
  );
  if (!row) throw new Error('insert returned no row');
  return toMapping(row);
}

export async function getAgentMapping(db: SqlClient, agentId: string): Promise<AgentMappingRow | null> {
  const [row] = await db.query('SELECT * FROM agent_mappings WHERE "agentId" = $1', [agentId]);
  return row ? toMapping(row) : null;
}

export async function listAgentMappings(db: SqlClient, accountId: string): Promise<AgentMappingRow[]> {
  const rows = await db.query(
    'SELECT * FROM agent_mappings WHERE "accountId" = $1 ORDER BY "createdAt", "agentId"',
    [accountId],
  );
  return rows.map(toMapping);
}

export async function agentMappingsOfCharacter(
  db: SqlClient,
  characterId: string,
): Promise<AgentMappingRow[]> {
  const rows = await db.query(
    'SELECT * FROM agent_mappings WHERE "characterId" = $1 ORDER BY "createdAt", "agentId"',
    [characterId],
  );
  return rows.map(toMapping);
}

export async function agentCharacterIds(db: SqlClient): Promise<string[]> {
  const rows = await db.query<{ characterId: string }>('SELECT "characterId" FROM agent_mappings');
  return rows.map((r) => r.characterId);
}

export async function deleteAgentMapping(db: SqlClient, agentId: string): Promise<boolean> {
  const rows = await db.query('DELETE FROM agent_mappings WHERE "agentId" = $1 RETURNING "agentId"', [
    agentId,
  ]);
  return rows.length > 0;
}

/** What every stored goal has (AgentService writes them); anything else in it is kept as it is. */
const storedGoal = z
  .looseObject({ type: z.string(), label: z.string(), startedAt: z.number() })
  .nullable() as z.ZodType<AgentGoalRow['goal']>;

/**
 * The character's goal row. A goal over the JSON limits or not a goal (a row written before the limits,
 * or by hand) is set aside: the character has no goal, and `onQuarantine` is told.
 */
export async function loadAgentGoal(
  db: SqlClient,
  characterId: string,
  onQuarantine: OnQuarantine = ignoreQuarantine,
): Promise<AgentGoalRow | null> {
  const [row] = await db.query(
    'SELECT goal::text AS goal, paused FROM agent_goals WHERE "characterId" = $1',
    [characterId],
  );
  if (!row) return null;
  const text = row['goal'] as string | null;
  const paused = Boolean(row['paused']);
  if (text === null) return { goal: null, paused };
  const goal = readStoredJson(text, storedGoal);
  if (!goal.ok) {
    onQuarantine({ table: 'agent_goals', column: 'goal', row: characterId, reason: goal.reason });
    return { goal: null, paused };
  }
  return { goal: goal.value, paused };
}

export async function saveAgentGoal(db: SqlClient, characterId: string, g: AgentGoalRow): Promise<void> {
  await db.query(
    `INSERT INTO agent_goals ("characterId", goal, paused, "updatedAt") VALUES ($1, $2::text::jsonb, $3, now())
     ON CONFLICT ("characterId") DO UPDATE SET goal = EXCLUDED.goal, paused = EXCLUDED.paused, "updatedAt" = now()`,
    [characterId, g.goal === null ? null : JSON.stringify(g.goal), g.paused],
  );
}

/** Keeps a message for the agent; only the newest `keep` stay. */
export async function queueAgentMessage(
  db: SqlClient,
  agentId: string,
  m: AgentMessageRow,
  keep: number,
): Promise<void> {
  await db.transaction(async (tx) => {
    await tx.query(
      `INSERT INTO agent_messages ("agentId", "fromAccountId", "fromName", content, "sentAt")
       VALUES ($1, $2, $3, $4, $5)`,
      [agentId, m.fromAccountId, m.fromName, m.content, new Date(m.sentAtMs)],
    );
    await tx.query(
      `DELETE FROM agent_messages WHERE "agentId" = $1 AND id NOT IN
         (SELECT id FROM agent_messages WHERE "agentId" = $1 ORDER BY id DESC LIMIT $2)`,
      [agentId, keep],
    );
  });
}

/** The agent's kept messages, oldest first, removed from the table in the same transaction. */
export async function takeAgentMessages(db: SqlClient, agentId: string): Promise<AgentMessageRow[]> {
  const rows = await db.query(
    `DELETE FROM agent_messages WHERE "agentId" = $1
     RETURNING id, "fromAccountId", "fromName", content, "sentAt"`,
    [agentId],
  );
  return rows
    .sort((a, b) => Number(a['id']) - Number(b['id']))
    .map((r) => ({
      fromAccountId: String(r['fromAccountId']),
      fromName: String(r['fromName']),
      content: String(r['content']),
      sentAtMs: (r['sentAt'] as Date).getTime(),
    }));
}
