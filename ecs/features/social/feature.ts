import { defineFeature } from '../../core/feature.ts';
import {
  handleAnnouncement,
  handleFriendRemove,
  handleFriendRequest,
  handleFriendRespond,
  handleIgnoreAdd,
  handleIgnoreRemove,
  handlePrivateMessage,
  handleSocialPresence,
  handleSocialResult,
  handleSocialUpdate,
  handleSocialWorldDown,
  hashSocial,
  onLeave,
  socialSystem,
} from './social.ts';
import { SOCIAL } from './state.ts';
import { socialWire } from './wire.ts';

/**
 * Friends, friend requests, the ignore list, presence, private messages and admin announcements: what
 * crosses worlds (docs/social.md).
 */
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
    socialWorldDown: handleSocialWorldDown,
    announcement: handleAnnouncement,
    privateMessage: handlePrivateMessage,
  },
  // Presence and announcements are news about any character or world, not for one player here.
  worldCommands: ['socialPresence', 'socialWorldDown', 'announcement'],
  // What reaches a player from elsewhere: still applied while it is dead.
  deliveries: [
    'socialResult',
    'socialUpdate',
    'socialPresence',
    'socialWorldDown',
    'announcement',
    'privateMessage',
  ],
  // A private message from another world is delivered when it arrives (the ignore list is read here).
  immediate: { privateMessage: true },
  systems: [{ name: 'social', phase: 'interactions', run: socialSystem }],
  on: { leave: onLeave },
  hash: hashSocial,
  wire: socialWire,
});
