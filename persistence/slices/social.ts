import { loadSocialLists } from '../repo/social.ts';
import { defineSlice } from './slice.ts';

/**
 * Friends, ignore list and friend requests, loaded with the character. Written only by the social
 * actions (SqlPersistence.socialAct, one transaction each), never by snapshots: saving is a no-op.
 */
export const socialSlice = defineSlice({
  name: 'social',
  load: (tx, characterIds) => loadSocialLists(tx, characterIds),
  async save() {},
});
