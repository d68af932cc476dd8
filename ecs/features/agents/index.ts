/** What other features and adapters may use of the AI-agent feature. */

export type { AgentGoal } from './events.ts';
export { agents } from './feature.ts';
export {
  AGENT_SEARCH_RADIUS,
  agentSurroundings,
  GOAL_TYPES,
  type GoalOption,
  type GoalType,
  type LocationType,
  MAX_NEARBY_LOCATIONS,
  type NearbyLocation,
  type Surroundings,
} from './surroundings.ts';
