import { defineFeature } from '../../core/feature.ts';
import {
  handleFriendRemove,
  handleFriendRequest,
  handleFriendRespond,
  handleIgnoreAdd,
  handleIgnoreRemove,
  handleSocialPresence,
  handleSocialResult,
  handleSocialUpdate,
  hashSocial,
  onLeave,
  socialSystem,
} from './social.ts';
import { SOCIAL } from './state.ts';

/** Friends, friend requests, the ignore list and presence (docs/social.md). */
export const social = defineFeature({
  name: 'social',
  state: SOCIAL,
  commands: {
    friendRequest: handleFriendRequest,
    friendRespond: handleFriendRespond,
    friendRemove: handleFriendRemove,
    ignoreAdd: handleIgnoreAdd,
    ignoreRemove: handleIgnoreRemove,
    socialResult: handleSocialResult,
    socialUpdate: handleSocialUpdate,
    socialPresence: handleSocialPresence,
  },
  systems: [{ name: 'social', phase: 'interactions', run: socialSystem }],
  on: { leave: onLeave },
  hash: hashSocial,
});
