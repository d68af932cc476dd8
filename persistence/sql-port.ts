import { randomUUID } from 'node:crypto';
import type { CharacterState } from '../ecs/core/character-state.ts';
import type { SocialAction, SocialLists, SocialOutcome } from '../ecs/features/social/index.ts';
import type {
  AgentGoalRow,
  AgentMappingRow,
  AgentMessageRow,
  AnonymousLogin,
  CharacterSummary,
  DeathLock,
  Holdings,
  ItemTransaction,
  ItemTransactionResult,
  PersistencePort,
  TradeAuditRow,
  UserRecord,
} from './port.ts';
import * as agents from './repo/agents.ts';
import * as chars from './repo/characters.ts';
import * as items from './repo/item-tx.ts';
import { SlotCache } from './repo/slot-cache.ts';
import * as social from './repo/social.ts';
import * as locks from './repo/world-locks.ts';
import { type DbActivity, type SqlClient, trackActivity, withRetry } from './sql.ts';
import type { OnQuarantine } from './stored-json.ts';

/** The PersistencePort over any SqlClient: the same code for postgres.js and PGlite. */

function toUser(r: Record<string, unknown>): UserRecord {
  return {
    id: String(r['id']),
    idpSubject: (r['idpSubject'] as string | null) ?? null,
    socialId: (r['socialId'] as string | null) ?? null,
    anonymous: Boolean(r['anonymous']),
    name: (r['name'] as string | null) ?? null,
    banned: Boolean(r['banned']),
    createdAt: r['createdAt'] as Date,
  };
}

export class SqlPersistence implements PersistencePort {
  private readonly slots = new SlotCache();

  private readonly db: SqlClient & { activity(): DbActivity };

  /**
   * With `fenceWorld` (several worlds, docs/scaling.md), batch saves write only the characters this
   * world holds, and item transactions touching a character it does not hold fail as 'stale'.
   */
  constructor(
    db: SqlClient,
    private readonly opts: {
      fenceWorld?: number;
      /** Told of each stored JSON value set aside instead of loaded (persistence/stored-json.ts). */
      onQuarantine?: OnQuarantine;
    } = {},
  ) {
    this.db = trackActivity(db);
  }

  activity(): DbActivity {
    return this.db.activity();
  }

  /** Runs a write of holdings other than a batch save, forgetting the characters' cached slots around it. */
  private async holdingsWrite<T>(ids: readonly string[], fn: () => Promise<T>): Promise<T> {
    this.slots.forget(ids);
    try {
      return await fn();
    } finally {
      this.slots.forget(ids);
    }
  }

  async getUser(accountId: string): Promise<UserRecord | null> {
    const [row] = await this.db.query('SELECT * FROM users WHERE id = $1', [accountId]);
    return row ? toUser(row) : null;
  }

  async findOrCreateIdpUser(idpSubject: string): Promise<UserRecord> {
    await this.db.query(
      'INSERT INTO users (id, "idpSubject") VALUES ($1, $2) ON CONFLICT ("idpSubject") DO NOTHING',
      [randomUUID(), idpSubject],
    );
    const [row] = await this.db.query('SELECT * FROM users WHERE "idpSubject" = $1', [idpSubject]);
    if (!row) throw new Error('user vanished after insert');
    return toUser(row);
  }

  async createAnonymousUser(name: string): Promise<UserRecord> {
    const [row] = await this.db.query(
      'INSERT INTO users (id, anonymous, name) VALUES ($1, true, $2) RETURNING *',
      [randomUUID(), name],
    );
    if (!row) throw new Error('insert returned no row');
    return toUser(row);
  }

  listCharacters(accountId: string): Promise<CharacterSummary[]> {
    return chars.listCharacters(this.db, accountId);
  }

  async createCharacter(state: CharacterState): Promise<CharacterState> {
    try {
      await this.db.transaction((tx) => chars.insertCharacter(tx, state));
    } catch (err) {
      chars.rethrowNameTaken(err, state.name);
    }
    const saved = await this.loadCharacter(state.id);
    if (!saved) throw new Error(`character ${state.id} vanished after insert`);
    return saved;
  }

  async deleteCharacter(accountId: string, characterId: string): Promise<boolean> {
    this.slots.forget([characterId]);
    const rows = await this.db.query(
      'DELETE FROM characters WHERE id = $1 AND "accountId" = $2 RETURNING id',
      [characterId, accountId],
    );
    return rows.length > 0;
  }

  loadCharacter(characterId: string): Promise<CharacterState | null> {
    // One transaction: inventory, equipment and bank from the same snapshot.
    return this.db.transaction((tx) => chars.loadCharacter(tx, characterId, this.opts.onQuarantine));
  }

  findCharacterByName(name: string): Promise<CharacterSummary | null> {
    return chars.findCharacterByName(this.db, name);
  }

  async renameCharacter(characterId: string, name: string): Promise<void> {
    try {
      await this.db.query('UPDATE characters SET name = $2 WHERE id = $1', [characterId, name]);
    } catch (err) {
      chars.rethrowNameTaken(err, name);
    }
  }

  async touchLogin(characterId: string): Promise<void> {
    await this.db.query('UPDATE characters SET "lastLoginAt" = now() WHERE id = $1', [characterId]);
  }

  async saveCharacters(snapshots: readonly CharacterState[]): Promise<void> {
    if (snapshots.length === 0) return;
    let written: chars.WrittenSlots = [];
    const fence = this.opts.fenceWorld;
    await withRetry(this.db, async (tx) => {
      written = [];
      let batch = snapshots;
      if (fence !== undefined) {
        // A world that lost a character (another world took it after our hold expired) writes nothing of it.
        const held = await locks.heldForWrite(
          tx,
          fence,
          snapshots.map((s) => s.id),
        );
        batch = snapshots.filter((s) => held.has(s.id));
      }
      for (let i = 0; i < batch.length; i += chars.SAVE_CHUNK) {
        await chars.saveChunk(tx, batch.slice(i, i + chars.SAVE_CHUNK), this.slots, written);
      }
    });
    for (const w of written) this.slots.remember(w.id, w.gen, w.keys);
  }

  applyItemTransaction(tx: ItemTransaction): Promise<ItemTransactionResult> {
    return this.holdingsWrite(
      tx.changes.map((c) => c.characterId),
      () => items.applyItemTransaction(this.db, tx, this.opts.fenceWorld),
    );
  }

  claimCharacters(worldId: number, characterIds: readonly string[], ttlMs: number): Promise<Set<string>> {
    return locks.claim(this.db, worldId, characterIds, ttlMs);
  }

  renewCharacterLocks(worldId: number, characterIds: readonly string[], ttlMs: number): Promise<string[]> {
    return locks.renew(this.db, worldId, characterIds, ttlMs);
  }

  releaseCharacterLocks(worldId: number, characterIds: readonly string[]): Promise<void> {
    return locks.release(this.db, worldId, characterIds);
  }

  characterWorlds(characterIds: readonly string[]): Promise<Map<string, number>> {
    return locks.holders(this.db, characterIds);
  }

  async recordTradeAudit(row: TradeAuditRow): Promise<void> {
    await this.db.transaction((tx) => items.insertAudit(tx, row));
  }

  async recordLogin(characterId: string, accountId: string): Promise<string> {
    const id = randomUUID();
    await this.db.query('INSERT INTO "playerSessions" (id, "characterId", "accountId") VALUES ($1, $2, $3)', [
      id,
      characterId,
      accountId,
    ]);
    return id;
  }

  async createAnonymousLogins(entries: readonly AnonymousLogin[]): Promise<{ taken: Set<string> }> {
    if (entries.length === 0) return { taken: new Set() };
    const users = entries.map((e) => ({ id: e.character.accountId, name: e.userName }));
    const created = await this.db.transaction(async (tx) => {
      await tx.query(
        `INSERT INTO users (id, anonymous, name)
         SELECT r.id, true, r.name FROM jsonb_to_recordset($1::text::jsonb) AS r(id text, name text)
         ON CONFLICT (id) DO NOTHING`,
        [JSON.stringify(users)],
      );
      return chars.insertCharactersSkippingTaken(
        tx,
        entries.map((e) => e.character),
      );
    });
    return { taken: new Set(entries.map((e) => e.character.id).filter((id) => !created.has(id))) };
  }

  loadCharacters(characterIds: readonly string[]): Promise<Map<string, CharacterState>> {
    if (characterIds.length === 0) return Promise.resolve(new Map());
    return this.db.transaction((tx) => chars.loadCharacters(tx, characterIds, this.opts.onQuarantine));
  }

  async recordLogins(
    logins: readonly { characterId: string; accountId: string }[],
  ): Promise<(string | null)[]> {
    if (logins.length === 0) return [];
    const rows = logins.map((l) => ({
      id: randomUUID(),
      characterId: l.characterId,
      accountId: l.accountId,
    }));
    // Characters locked in id order first, as a batch save does: the two cannot deadlock.
    const ids = [...new Set(rows.map((r) => r.characterId))].sort();
    const inserted = await this.db.transaction(async (tx) => {
      await tx.query(
        'SELECT id FROM characters WHERE id IN (SELECT jsonb_array_elements_text($1::text::jsonb)) ORDER BY id FOR UPDATE',
        [JSON.stringify(ids)],
      );
      return tx.query<{ id: string }>(
        `WITH r AS (
         SELECT * FROM jsonb_to_recordset($1::text::jsonb) AS r(id text, "characterId" text, "accountId" text)
         WHERE EXISTS (SELECT 1 FROM characters c WHERE c.id = r."characterId")
       ),
       touched AS (UPDATE characters c SET "lastLoginAt" = now() FROM r WHERE c.id = r."characterId")
       INSERT INTO "playerSessions" (id, "characterId", "accountId") SELECT id, "characterId", "accountId" FROM r
       RETURNING id`,
        [JSON.stringify(rows)],
      );
    });
    const ok = new Set(inserted.map((r) => String(r.id)));
    return rows.map((r) => (ok.has(r.id) ? r.id : null));
  }

  async recordLogout(sessionId: string): Promise<void> {
    await this.db.query(
      'UPDATE "playerSessions" SET "logoutAt" = now() WHERE id = $1 AND "logoutAt" IS NULL',
      [sessionId],
    );
  }

  createDeathLock(lock: DeathLock): Promise<ItemTransactionResult> {
    return this.holdingsWrite([lock.characterId], () =>
      items.createDeathLock(this.db, lock, this.opts.fenceWorld),
    );
  }

  resolveDeathLock(
    id: string,
    claims?: { characterId: string; before: Holdings; after: Holdings },
  ): Promise<ItemTransactionResult> {
    return this.holdingsWrite(claims ? [claims.characterId] : [], () =>
      items.resolveDeathLock(this.db, id, claims, this.opts.fenceWorld, this.opts.onQuarantine),
    );
  }

  recoverDeathLocks(): Promise<number> {
    return items.recoverDeathLocks(this.db, this.opts.fenceWorld, this.opts.onQuarantine);
  }

  async recordNpcKills(rows: { characterId: string; npcId: string; count: number }[]): Promise<void> {
    const valid = rows.filter((r) => r.count > 0);
    if (valid.length === 0) return;
    await this.db.query(
      `INSERT INTO "npcKills" ("characterId", "npcId", count)
       SELECT r."characterId", r."npcId", sum(r.count) FROM jsonb_to_recordset($1::text::jsonb) AS r("characterId" text, "npcId" text, count integer)
       WHERE EXISTS (SELECT 1 FROM characters c WHERE c.id = r."characterId")
       GROUP BY r."characterId", r."npcId"
       ON CONFLICT ("characterId", "npcId") DO UPDATE SET count = "npcKills".count + EXCLUDED.count`,
      [JSON.stringify(valid)],
    );
  }

  socialAct(action: SocialAction): Promise<SocialOutcome> {
    return withRetry(this.db, (tx) => social.runSocialAction(tx, action));
  }

  loadSocialLists(characterIds: readonly string[]): Promise<Map<string, SocialLists>> {
    if (characterIds.length === 0) return Promise.resolve(new Map());
    return this.db.transaction((tx) => social.loadSocialLists(tx, characterIds));
  }

  createAgentMapping(mapping: Omit<AgentMappingRow, 'createdAt'>): Promise<AgentMappingRow> {
    return agents.createAgentMapping(this.db, mapping);
  }

  getAgentMapping(agentId: string): Promise<AgentMappingRow | null> {
    return agents.getAgentMapping(this.db, agentId);
  }

  listAgentMappings(accountId: string): Promise<AgentMappingRow[]> {
    return agents.listAgentMappings(this.db, accountId);
  }

  agentMappingsOfCharacter(characterId: string): Promise<AgentMappingRow[]> {
    return agents.agentMappingsOfCharacter(this.db, characterId);
  }

  agentCharacterIds(): Promise<string[]> {
    return agents.agentCharacterIds(this.db);
  }

  deleteAgentMapping(agentId: string): Promise<boolean> {
    return agents.deleteAgentMapping(this.db, agentId);
  }

  loadAgentGoal(characterId: string): Promise<AgentGoalRow | null> {
    return agents.loadAgentGoal(this.db, characterId, this.opts.onQuarantine);
  }

  saveAgentGoal(characterId: string, goal: AgentGoalRow): Promise<void> {
    return agents.saveAgentGoal(this.db, characterId, goal);
  }

  queueAgentMessage(agentId: string, message: AgentMessageRow, keep: number): Promise<void> {
    return agents.queueAgentMessage(this.db, agentId, message, keep);
  }

  takeAgentMessages(agentId: string): Promise<AgentMessageRow[]> {
    return agents.takeAgentMessages(this.db, agentId);
  }

  async healthy(): Promise<boolean> {
    try {
      await this.db.query('SELECT 1');
      return true;
    } catch {
      return false;
    }
  }

  close(): Promise<void> {
    return this.db.close();
  }
}
