import { beforeAll, describe, expect, it } from 'vitest';
import type { PersistencePort } from '../../persistence/port.ts';
import type { SqlClient } from '../../persistence/sql.ts';
import { makeCharacter } from '../helpers/characters.ts';
import { rejectsWith } from './rejects-with.ts';

/** AI agents (mappings, goals, kept messages) through the persistence port; run by persistence.contract.ts on every driver. */
export function agentsContract(get: () => { port: PersistencePort; sql: SqlClient; account: string }): void {
  let port: PersistencePort;
  let sql: SqlClient;
  let account: string;
  beforeAll(() => {
    ({ port, sql, account } = get());
  });

  describe('AI agents (mappings, goals, kept messages)', () => {
    it('creates, reads, lists by account and character, and deletes a mapping with its messages', async () => {
      const c = await port.createCharacter(makeCharacter(account, 'AgentChar'));
      const m = await port.createAgentMapping({
        agentId: 'ag-1',
        accountId: account,
        characterId: c.id,
        name: 'Scout',
      });
      expect(m).toMatchObject({ agentId: 'ag-1', accountId: account, characterId: c.id, name: 'Scout' });
      expect(m.createdAt).toBeInstanceOf(Date);
      expect(await port.getAgentMapping('ag-1')).toEqual(m);
      expect(await port.getAgentMapping('nobody')).toBeNull();
      expect((await port.listAgentMappings(account)).map((r) => r.agentId)).toContain('ag-1');
      expect((await port.agentMappingsOfCharacter(c.id)).map((r) => r.agentId)).toEqual(['ag-1']);
      expect(await port.agentCharacterIds()).toContain(c.id);
      await rejectsWith(
        port.createAgentMapping({ agentId: 'ag-1', accountId: account, characterId: c.id, name: '' }),
        '23505',
      );
      await port.queueAgentMessage(
        'ag-1',
        { fromAccountId: account, fromName: 'x', content: 'hi', sentAtMs: 1 },
        50,
      );
      expect(await port.deleteAgentMapping('ag-1')).toBe(true);
      expect(await port.deleteAgentMapping('ag-1')).toBe(false);
      expect(await port.getAgentMapping('ag-1')).toBeNull();
      expect(await port.agentCharacterIds()).not.toContain(c.id);
      const left = await sql.query('SELECT 1 FROM agent_messages WHERE "agentId" = $1', ['ag-1']);
      expect(left).toEqual([]);
    });

    it('saves and loads a goal with its pause flag; null goal allowed', async () => {
      const c = await port.createCharacter(makeCharacter(account, 'GoalChar'));
      expect(await port.loadAgentGoal(c.id)).toBeNull();
      const goal = { type: 'explore', label: 'Explore', startedAt: 1234, params: { radius: 5 } };
      await port.saveAgentGoal(c.id, { goal, paused: false });
      expect(await port.loadAgentGoal(c.id)).toEqual({ goal, paused: false });
      await port.saveAgentGoal(c.id, { goal: null, paused: true });
      expect(await port.loadAgentGoal(c.id)).toEqual({ goal: null, paused: true });
    });

    it('keeps at most `keep` messages, the newest, and hands them out oldest first exactly once', async () => {
      const c = await port.createCharacter(makeCharacter(account, 'MsgChar'));
      await port.createAgentMapping({ agentId: 'ag-msg', accountId: account, characterId: c.id, name: '' });
      for (let i = 0; i < 7; i++)
        await port.queueAgentMessage(
          'ag-msg',
          { fromAccountId: account, fromName: 'Boss', content: `m${i}`, sentAtMs: 1_700_000_000_000 + i },
          5,
        );
      const got = await port.takeAgentMessages('ag-msg');
      expect(got.map((m) => m.content)).toEqual(['m2', 'm3', 'm4', 'm5', 'm6']);
      expect(got[0]).toEqual({
        fromAccountId: account,
        fromName: 'Boss',
        content: 'm2',
        sentAtMs: 1_700_000_000_002,
      });
      expect(await port.takeAgentMessages('ag-msg')).toEqual([]);
    });
  });
}
