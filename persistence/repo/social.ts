import {
  type SocialEntry as Entry,
  MAX_FRIENDS,
  MAX_IGNORED,
  type SocialAction,
  type SocialOutcome as SocialResult,
} from '../../ecs/features/social/index.ts';
import { loadSocialLists } from '../slices/social.ts';
import type { SqlTx } from '../sql.ts';

export { loadSocialLists };

/**
 * Friends, friend requests and ignore lists (tables `friendships`, `friend_requests`, `ignore_lists`).
 * Every action runs in one transaction that first locks the rows of both characters in id order, so two
 * actions on the same pair (two requests crossing, an accept and a removal) run one after the other and
 * the second sees what the first committed.
 */

const json = (v: unknown) => JSON.stringify(v);
const IDS = 'SELECT jsonb_array_elements_text($1::text::jsonb)';

async function byName(tx: SqlTx, name: string): Promise<Entry | null> {
  const [row] = await tx.query<Entry>('SELECT id, name FROM characters WHERE lower(name) = lower($1)', [
    name,
  ]);
  return row ?? null;
}

/** Locks both characters' rows in id order; false when either no longer exists. */
async function lockPair(tx: SqlTx, a: string, b: string): Promise<boolean> {
  const rows = await tx.query(`SELECT id FROM characters WHERE id IN (${IDS}) ORDER BY id FOR UPDATE`, [
    json([a, b].sort()),
  ]);
  return rows.length === 2;
}

async function friendCount(tx: SqlTx, id: string): Promise<number> {
  const [row] = await tx.query<{ n: number }>(
    'SELECT count(*)::int AS n FROM friendships WHERE "characterA" = $1 OR "characterB" = $1',
    [id],
  );
  return row?.n ?? 0;
}

async function areFriends(tx: SqlTx, a: string, b: string): Promise<boolean> {
  const [lo, hi] = [a, b].sort();
  const rows = await tx.query('SELECT 1 FROM friendships WHERE "characterA" = $1 AND "characterB" = $2', [
    lo,
    hi,
  ]);
  return rows.length > 0;
}

async function hasRequest(tx: SqlTx, fromId: string, toId: string): Promise<boolean> {
  const rows = await tx.query('SELECT 1 FROM friend_requests WHERE "fromId" = $1 AND "toId" = $2', [
    fromId,
    toId,
  ]);
  return rows.length > 0;
}

/** Both requests of the pair go; the friendship is made (both under the limit, checked by the caller). */
async function befriend(tx: SqlTx, a: string, b: string): Promise<void> {
  const [lo, hi] = [a, b].sort();
  await tx.query(
    'DELETE FROM friend_requests WHERE ("fromId" = $1 AND "toId" = $2) OR ("fromId" = $2 AND "toId" = $1)',
    [a, b],
  );
  await tx.query(
    'INSERT INTO friendships ("characterA", "characterB") VALUES ($1, $2) ON CONFLICT DO NOTHING',
    [lo, hi],
  );
}

const fail = (code: Extract<SocialResult, { ok: false }>['code'], message: string): SocialResult => ({
  ok: false,
  code,
  message,
});

async function limitProblem(tx: SqlTx, a: string, b: string): Promise<SocialResult | null> {
  if ((await friendCount(tx, a)) >= MAX_FRIENDS)
    return fail('REQUIREMENT_NOT_MET', `at most ${MAX_FRIENDS} friends`);
  if ((await friendCount(tx, b)) >= MAX_FRIENDS)
    return fail('REQUIREMENT_NOT_MET', `that player already has ${MAX_FRIENDS} friends`);
  return null;
}

async function done(
  tx: SqlTx,
  result: Extract<SocialResult, { ok: true }>['result'],
  actorId: string,
  otherId: string,
  /** The characters besides the actor whose lists changed. */
  changed: readonly string[],
): Promise<SocialResult> {
  const lists = await loadSocialLists(tx, [actorId, ...changed.filter((c) => c !== actorId)]);
  return { ok: true, result, otherId, lists: Object.fromEntries(lists) };
}

/** The account's characters: an ignore list change is theirs too. */
async function accountCharacters(tx: SqlTx, accountId: string): Promise<string[]> {
  const rows = await tx.query<{ id: string }>(
    'SELECT id FROM characters WHERE "accountId" = $1 ORDER BY id',
    [accountId],
  );
  return rows.map((r) => r.id);
}

/** One social action, in the caller's transaction. */
export async function runSocialAction(tx: SqlTx, action: SocialAction): Promise<SocialResult> {
  const actorId = action.actorId;
  if (action.kind === 'respond') {
    const i = action.requestId.indexOf('>');
    const fromId = action.requestId.slice(0, i);
    if (i <= 0 || action.requestId.slice(i + 1) !== actorId)
      return fail('NOT_FOUND', 'no such friend request');
    if (!(await lockPair(tx, actorId, fromId)) || !(await hasRequest(tx, fromId, actorId)))
      return fail('NOT_FOUND', 'no such friend request');
    if (!action.accept) {
      await tx.query('DELETE FROM friend_requests WHERE "fromId" = $1 AND "toId" = $2', [fromId, actorId]);
      return done(tx, 'declined', actorId, fromId, [fromId]);
    }
    const problem = await limitProblem(tx, actorId, fromId);
    if (problem) return problem;
    await befriend(tx, actorId, fromId);
    return done(tx, 'befriended', actorId, fromId, [fromId]);
  }

  const target = await byName(tx, action.name);
  if (!target) return fail('NOT_FOUND', `no player is named ${action.name}`);
  if (action.kind === 'ignoreAdd' || action.kind === 'ignoreRemove') {
    if (target.id === actorId) return fail('INVALID_TARGET', 'you cannot ignore yourself');
    // The account's row is the lock: two characters of one account cannot pass the limit together.
    const [owner] = await tx.query<{ accountId: string }>(
      `SELECT u.id AS "accountId" FROM users u JOIN characters c ON c."accountId" = u.id WHERE c.id = $1 FOR UPDATE OF u`,
      [actorId],
    );
    if (!owner) return fail('NOT_FOUND', 'character not found');
    if (action.kind === 'ignoreRemove') {
      const gone = await tx.query(
        'DELETE FROM ignore_lists WHERE "accountId" = $1 AND "ignoredCharacterId" = $2 RETURNING 1',
        [owner.accountId, target.id],
      );
      if (gone.length === 0) return fail('NOT_FOUND', `${target.name} is not ignored`);
      return done(tx, 'unignored', actorId, target.id, await accountCharacters(tx, owner.accountId));
    }
    const [count] = await tx.query<{ n: number; here: boolean }>(
      `SELECT count(*)::int AS n, bool_or("ignoredCharacterId" = $2) AS here FROM ignore_lists WHERE "accountId" = $1`,
      [owner.accountId, target.id],
    );
    if (count?.here) return fail('BUSY', `${target.name} is already ignored`);
    if ((count?.n ?? 0) >= MAX_IGNORED)
      return fail('REQUIREMENT_NOT_MET', `at most ${MAX_IGNORED} ignored players`);
    await tx.query('INSERT INTO ignore_lists ("accountId", "ignoredCharacterId") VALUES ($1, $2)', [
      owner.accountId,
      target.id,
    ]);
    return done(tx, 'ignored', actorId, target.id, await accountCharacters(tx, owner.accountId));
  }

  if (target.id === actorId) return fail('INVALID_TARGET', 'you cannot add yourself as a friend');
  if (!(await lockPair(tx, actorId, target.id)))
    return fail('NOT_FOUND', `no player is named ${action.name}`);
  if (action.kind === 'remove') {
    const [lo, hi] = [actorId, target.id].sort();
    const ended = await tx.query(
      'DELETE FROM friendships WHERE "characterA" = $1 AND "characterB" = $2 RETURNING 1',
      [lo, hi],
    );
    const withdrawn = await tx.query(
      'DELETE FROM friend_requests WHERE "fromId" = $1 AND "toId" = $2 RETURNING 1',
      [actorId, target.id],
    );
    if (ended.length === 0 && withdrawn.length === 0)
      return fail('NOT_FOUND', `${target.name} is not your friend`);
    return done(tx, 'removed', actorId, target.id, [target.id]);
  }
  // request
  if (await areFriends(tx, actorId, target.id)) return fail('BUSY', `${target.name} is already your friend`);
  if (await hasRequest(tx, actorId, target.id)) return fail('BUSY', `you already asked ${target.name}`);
  if (await hasRequest(tx, target.id, actorId)) {
    // Two requests crossing: the second is the first one's accept.
    const problem = await limitProblem(tx, actorId, target.id);
    if (problem) return problem;
    await befriend(tx, actorId, target.id);
    return done(tx, 'befriended', actorId, target.id, [target.id]);
  }
  if ((await friendCount(tx, actorId)) >= MAX_FRIENDS)
    return fail('REQUIREMENT_NOT_MET', `at most ${MAX_FRIENDS} friends`);
  await tx.query('INSERT INTO friend_requests ("fromId", "toId") VALUES ($1, $2)', [actorId, target.id]);
  return done(tx, 'requested', actorId, target.id, [target.id]);
}
