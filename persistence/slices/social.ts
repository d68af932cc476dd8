import { requestIdOf, type SocialLists } from '../../ecs/features/social/index.ts';
import type { SqlTx } from '../sql.ts';
import { defineSlice } from './slice.ts';

/**
 * Friends, ignore list and friend requests, loaded with the character (absent when all are empty).
 * Written only by the social actions (SqlPersistence.socialAct, one transaction each), never by
 * snapshots: saving is a no-op.
 */
export const socialSlice = defineSlice({
  name: 'social',
  async load(tx, characterIds) {
    const all = await loadSocialLists(tx, characterIds);
    for (const [id, l] of all) {
      if (l.friends.length + l.ignored.length + l.requests.length + l.outgoing.length === 0) all.delete(id);
    }
    return all;
  },
  async save() {},
});

const IDS = 'SELECT jsonb_array_elements_text($1::text::jsonb)';

/** The lists of these characters (a character with none gets empty lists). */
export async function loadSocialLists(
  tx: SqlTx,
  characterIds: readonly string[],
): Promise<Map<string, SocialLists>> {
  const out = new Map<string, SocialLists>();
  if (characterIds.length === 0) return out;
  for (const id of characterIds) out.set(id, { friends: [], ignored: [], requests: [], outgoing: [] });
  const ids = [JSON.stringify(characterIds)];
  const friends = await tx.query<{ owner: string; id: string; name: string }>(
    `SELECT f.owner, c.id, c.name FROM (
       SELECT "characterA" AS owner, "characterB" AS other, "createdAt" FROM friendships WHERE "characterA" IN (${IDS})
       UNION ALL
       SELECT "characterB", "characterA", "createdAt" FROM friendships WHERE "characterB" IN (${IDS})
     ) f JOIN characters c ON c.id = f.other
     ORDER BY f."createdAt", c.id`,
    ids,
  );
  for (const r of friends) out.get(r.owner)?.friends.push({ id: r.id, name: r.name });
  const ignored = await tx.query<{ owner: string; id: string; name: string }>(
    `SELECT o.id AS owner, c.id, c.name FROM characters o
     JOIN ignore_lists i ON i."accountId" = o."accountId"
     JOIN characters c ON c.id = i."ignoredCharacterId"
     WHERE o.id IN (${IDS}) ORDER BY i."createdAt", c.id`,
    ids,
  );
  for (const r of ignored) out.get(r.owner)?.ignored.push({ id: r.id, name: r.name });
  const requests = await tx.query<{ fromId: string; toId: string; fromName: string; toName: string }>(
    `SELECT r."fromId", r."toId", f.name AS "fromName", t.name AS "toName" FROM friend_requests r
     JOIN characters f ON f.id = r."fromId" JOIN characters t ON t.id = r."toId"
     WHERE r."toId" IN (${IDS}) OR r."fromId" IN (${IDS}) ORDER BY r."createdAt", r."fromId", r."toId"`,
    ids,
  );
  for (const r of requests) {
    out
      .get(r.toId)
      ?.requests.push({ requestId: requestIdOf(r.fromId, r.toId), fromId: r.fromId, fromName: r.fromName });
    out.get(r.fromId)?.outgoing.push({ id: r.toId, name: r.toName });
  }
  return out;
}
