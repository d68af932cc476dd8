import type { CharacterState } from '../ecs/core/character-state.ts';
import type { DeathLockRequest, Holdings, ItemTxRequest, TradeAudit } from '../ecs/core/persist-intents.ts';
import type { SocialAction, SocialLists, SocialOutcome } from '../ecs/features/social/index.ts';
import type { DbActivity } from './sql.ts';

/**
 * The persistence port: the only way the rest of the server reaches the database (ARCHITECTURE rule 5).
 * Two implementations sit behind it (postgres.js and PGlite) and run the same contract tests (rule 7).
 */

export interface UserRecord {
  id: string;
  idpSubject: string | null;
  socialId: string | null;
  anonymous: boolean;
  name: string | null;
  banned: boolean;
  createdAt: Date;
}

export interface CharacterSummary {
  id: string;
  accountId: string;
  name: string;
  combatLevel: number;
  createdAt: Date;
  lastLoginAt: Date | null;
}

export type { Holdings } from '../ecs/core/persist-intents.ts';

/** An item transaction as the database applies it: the simulation's request without who asked. */
export type ItemTransaction = Pick<ItemTxRequest, 'id' | 'kind' | 'changes' | 'conserve' | 'audit'>;

export type ItemTransactionResult =
  | { ok: true }
  | { ok: false; reason: 'stale' | 'not_conserved' | 'constraint' | 'error'; detail: string };

export type TradeAuditRow = TradeAudit;

/** Items a dead player dropped, held until picked up or despawned. */
export type DeathLock = DeathLockRequest;

/** createCharacter / renameCharacter: the name exists already (case-insensitive, one name per world). */
export class NameTakenError extends Error {
  constructor(readonly characterName: string) {
    super(`character name "${characterName}" is taken`);
    this.name = 'NameTakenError';
  }
}

export interface AnonymousLogin {
  userName: string;
  character: CharacterState;
}

/** An AI agent's mapping to the character it plays (agent_mappings). */
export interface AgentMappingRow {
  agentId: string;
  accountId: string;
  characterId: string;
  name: string;
  createdAt: Date;
}

/** A character's agent goal (a JSON object, or null) and whether goals are paused (agent_goals). */
export interface AgentGoalRow {
  goal: Record<string, unknown> | null;
  paused: boolean;
}

/** A message kept for an agent that was not connected (agent_messages). */
export interface AgentMessageRow {
  fromAccountId: string;
  fromName: string;
  content: string;
  sentAtMs: number;
}

export interface PersistencePort {
  // accounts
  getUser(accountId: string): Promise<UserRecord | null>;
  findOrCreateIdpUser(idpSubject: string): Promise<UserRecord>;
  createAnonymousUser(name: string): Promise<UserRecord>;
  // characters
  listCharacters(accountId: string): Promise<CharacterSummary[]>;
  /** Throws NameTakenError when the name exists (case-insensitive). */
  createCharacter(state: CharacterState): Promise<CharacterState>;
  deleteCharacter(accountId: string, characterId: string): Promise<boolean>;
  loadCharacter(characterId: string): Promise<CharacterState | null>;
  findCharacterByName(name: string): Promise<CharacterSummary | null>;
  /** Throws NameTakenError when the name exists (case-insensitive). */
  renameCharacter(characterId: string, name: string): Promise<void>;
  touchLogin(characterId: string): Promise<void>;
  /**
   * One batch, one transaction, the full state of each character (position, skills + xp, health, coins,
   * inventory, equipment). NOT the bank: the bank changes only through item transactions.
   */
  saveCharacters(snapshots: readonly CharacterState[]): Promise<void>;
  /**
   * Locks the characters' rows (sorted ids: no deadlock), compares current holdings with `before`
   * exactly (mismatch: 'stale', nothing written), writes `after` and the audit row, commits.
   * Retried on serialization failure / deadlock.
   */
  applyItemTransaction(tx: ItemTransaction): Promise<ItemTransactionResult>;
  // one character, one world (several worlds on one database: docs/scaling.md)
  /**
   * Takes the hold on each character that is free, expired, or this world's already, until now + ttlMs.
   * Returns the ids taken; the others are held by another world.
   */
  claimCharacters(worldId: number, characterIds: readonly string[], ttlMs: number): Promise<Set<string>>;
  /** Renews this world's unexpired holds; returns the ids it no longer holds. */
  renewCharacterLocks(worldId: number, characterIds: readonly string[], ttlMs: number): Promise<string[]>;
  /** Lets go of this world's holds (one another world took meanwhile is untouched). */
  releaseCharacterLocks(worldId: number, characterIds: readonly string[]): Promise<void>;
  /** The world holding each character now; absent: held by none. */
  characterWorlds(characterIds: readonly string[]): Promise<Map<string, number>>;
  /** For trades that end without an item transaction (cancelled). */
  recordTradeAudit(row: TradeAuditRow): Promise<void>;
  // sessions, deaths, stats
  /** Returns the session id. */
  recordLogin(characterId: string, accountId: string): Promise<string>;
  recordLogout(sessionId: string): Promise<void>;
  // logins in batches (a login storm: one transaction for many logins)
  /**
   * Anonymous sign-ups: each entry's temporary account (id `character.accountId`, name `userName`) and
   * its first character, all in one transaction. An account that exists already is kept (a retry).
   * Characters whose name is taken are not created: their ids are in `taken`.
   */
  createAnonymousLogins(entries: readonly AnonymousLogin[]): Promise<{ taken: Set<string> }>;
  /** Several characters in one transaction; missing ids are absent from the map. */
  loadCharacters(characterIds: readonly string[]): Promise<Map<string, CharacterState>>;
  /**
   * recordLogin + touchLogin for many logins in one statement. Returns each login's session id, or
   * null where the character no longer exists.
   */
  recordLogins(logins: readonly { characterId: string; accountId: string }[]): Promise<(string | null)[]>;
  /** The lock row and the holdings change (items leave the character) in ONE transaction. */
  createDeathLock(lock: DeathLock): Promise<ItemTransactionResult>;
  /** Deletes the lock; with claims, applies that holdings change (e.g. the owner picks items up) atomically. */
  resolveDeathLock(
    id: string,
    claims?: { characterId: string; before: Holdings; after: Holdings },
  ): Promise<ItemTransactionResult>;
  /** At start-up: each unresolved lock's items go to the owner's bank and the lock is deleted, one tx each. */
  recoverDeathLocks(): Promise<number>;
  recordNpcKills(rows: { characterId: string; npcId: string; count: number }[]): Promise<void>;
  // friends and ignore lists
  /**
   * One friend or ignore action in one transaction (both characters' rows locked in id order): the
   * refusal, or the outcome with the fresh lists of the actor and of the other character it changed.
   */
  socialAct(action: SocialAction): Promise<SocialOutcome>;
  /** The lists of these characters (empty lists for a character with none). */
  loadSocialLists(characterIds: readonly string[]): Promise<Map<string, SocialLists>>;
  // AI agents
  /** Throws a constraint violation (23505) for an agentId in use. */
  createAgentMapping(mapping: Omit<AgentMappingRow, 'createdAt'>): Promise<AgentMappingRow>;
  getAgentMapping(agentId: string): Promise<AgentMappingRow | null>;
  listAgentMappings(accountId: string): Promise<AgentMappingRow[]>;
  agentMappingsOfCharacter(characterId: string): Promise<AgentMappingRow[]>;
  /** The character of every mapping, once per mapping (read once at start: logins of other players cost nothing). */
  agentCharacterIds(): Promise<string[]>;
  /** Also drops the agent's kept messages. */
  deleteAgentMapping(agentId: string): Promise<boolean>;
  loadAgentGoal(characterId: string): Promise<AgentGoalRow | null>;
  saveAgentGoal(characterId: string, goal: AgentGoalRow): Promise<void>;
  /** Keeps a message for an agent that is not connected; only the newest `keep` stay. */
  queueAgentMessage(agentId: string, message: AgentMessageRow, keep: number): Promise<void>;
  /** The kept messages, oldest first, removed as they are read. */
  takeAgentMessages(agentId: string): Promise<AgentMessageRow[]>;
  healthy(): Promise<boolean>;
  /** What the database has been doing (calls completed, calls in flight): busy is not down. */
  activity(): DbActivity;
  close(): Promise<void>;
}
