/** What other features and adapters may use of the social feature. */
export { social } from './feature.ts';
export {
  emptyLists,
  MAX_FRIENDS,
  MAX_IGNORED,
  parseRequestId,
  requestIdOf,
  type SocialAction,
  type SocialEntry,
  type SocialErrorCode,
  type SocialLists,
  type SocialOutcome,
  type SocialRequest,
} from './lists.ts';
export { announceEverywhere, ignores, onlineWorld, sendPrivateElsewhere, takeSocialOps } from './social.ts';
export { MAX_PENDING_ACTIONS, type SocialOp, TAKEOVER_GRACE_TICKS } from './state.ts';
