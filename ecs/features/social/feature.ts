import { defineFeature } from '../../core/feature.ts';
import {
  handleFriendRemove,
  handleFriendRequest,
  handleFriendRespond,
  handleIgnoreAdd,
  handleIgnoreRemove,
  handlePrivateMessage,
  handleSocialPresence,
  handleSocialResult,
  handleSocialUpdate,
  hashSocial,
  onLeave,
  socialSystem,
} from './social.ts';
import { SOCIAL } from './state.ts';

/** Friends, friend requests, the ignore list, presence, private messages across worlds (docs/social.md). */
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
    privateMessage: handlePrivateMessage,
  },
  // Presence is news about any character, in this world or not.
  worldCommands: ['socialPresence'],
  systems: [{ name: 'social', phase: 'interactions', run: socialSystem }],
  on: { leave: onLeave },
  hash: hashSocial,
});
