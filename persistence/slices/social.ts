import { loadSocialLists } from '../repo/social.ts';
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
