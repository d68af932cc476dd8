import type { CommandType, PlayerAction } from './core/commands.ts';
import type { HandledActions, HandledCommands } from './core/feature.ts';
import { buildPlan } from './core/plan.ts';
import { players } from './core/players.ts';
import { admin } from './features/admin/index.ts';
import { agents } from './features/agents/index.ts';
import { agility } from './features/agility/index.ts';
import { bank } from './features/bank/index.ts';
import { chat } from './features/chat/index.ts';
import { combat } from './features/combat/index.ts';
import { death } from './features/death/index.ts';
import { dialogue } from './features/dialogue/index.ts';
import { equipment } from './features/equipment/index.ts';
import { gathering } from './features/gathering/index.ts';
import { groundItems } from './features/ground-items/index.ts';
import { homeTeleport } from './features/home-teleport/index.ts';
import { interaction } from './features/interaction/index.ts';
import { inventory } from './features/inventory/index.ts';
import { movement } from './features/movement/index.ts';
import { npcs } from './features/npcs/index.ts';
import { prayer } from './features/prayer/index.ts';
import { processing } from './features/processing/index.ts';
import { quests } from './features/quests/index.ts';
import { resources } from './features/resources/index.ts';
import { shops } from './features/shops/index.ts';
import { social } from './features/social/index.ts';
import { stations } from './features/stations/index.ts';
import { trade } from './features/trade/index.ts';
import { voice } from './features/voice/index.ts';

/**
 * The tick, in order. Every system is a plain synchronous function over the world; the order comes from
 * the phase each feature gives its systems, then from the position of the feature in FEATURES. A test
 * (tests/arch) checks this comment against the resolved order.
 *
 *  0. begin        free last tick's despawned eids, clear per-tick outputs (core/world.ts)
 *  1. commands     apply this tick's commands in arrival order, each by the feature that handles its type
 *  2. pathfinding  [movement] resolve queued path requests within the per-tick budget
 *  3. movement     [movement] advance walkers 2 tiles and runners 4 along their paths (runners pay run energy)
 *  4. runEnergy    [movement] players who did not run get run energy back (faster with agility)
 *  5. npcs         [npcs] wander inside their spawn radius
 *  6. npcCombat    [combat] NPCs respawn, leash home and heal, aggressive ones pick a player nearby (grid)
 *  7. combat       [combat] fights: swing when in reach and ready, follow targets out of reach
 *  8. gathering    [gathering] depleted nodes respawn; gatherers whose cycle ended roll for their yield
 *  9. processing   [processing] batches whose item is due make it (cook, burn, smelt, light a fire...)
 * 10. prayer       [prayer] players entering get prayer:state; active prayers drain points
 * 11. agility      [agility] crossings whose ticks are up land the player (xp) or drop it (damage)
 * 12. approach     [interaction] act for players who walked within reach of their action's target
 * 13. social       [social] players who entered get their friend lists; takeovers not back go offline
 * 14. trade        [trade] unanswered trade requests expire
 * 15. shops        [shops] restock one unit per restockTime; shops of players out of range close
 * 16. questRewards [quests] rewards of quests completed while the items were locked
 * 17. dialogue     [dialogue] conversations of players who walked away end
 * 18. homeTeleport [homeTeleport] casts that reached their tick land on the spawn
 * 19. expireStations [stations] stations with a lifetime (fires) burn out
 * 20. items        [groundItems] ground items turn public, then despawn
 * 21. death        [death] players at 0 health drop their items (death lock) and respawn
 * 22. voiceArea    [voice] players who changed world area are told their new voice room
 * 23. txGuard      [inventory] LAST: players with an item transaction in flight are not snapshotted
 *  after the tick (outside ecs/): replication builds world:update per observer, player:sync for marked
 *  players, then the persistence hand-off takes world.persist.
 */

/** The features of the game, in dependency order: a feature comes after every feature it uses. */
export const FEATURES = [
  players,
  movement,
  interaction,
  npcs,
  resources,
  stations,
  inventory,
  equipment,
  groundItems,
  bank,
  social,
  chat,
  trade,
  shops,
  quests,
  dialogue,
  death,
  homeTeleport,
  gathering,
  processing,
  voice,
  prayer,
  combat,
  agility,
  admin,
  agents,
] as const;

// Every command type is handled by a feature (a compile error names the missing ones).
type Unhandled = Exclude<CommandType, HandledCommands<typeof FEATURES>>;
const allHandled: [Unhandled] extends [never] ? true : Unhandled = true;
void allHandled;

// Every declared `player:action` verb is answered by a feature (a compile error names the missing ones).
type Unanswered = Exclude<PlayerAction, HandledActions<typeof FEATURES>>;
const allAnswered: [Unanswered] extends [never] ? true : Unanswered = true;
void allAnswered;

export const PLAN = buildPlan(FEATURES);
