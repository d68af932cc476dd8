import type { World } from 'bitecs';
import type { CharacterState } from './character-state.ts';
import type { Command, CommandOf, CommandType, PlayerAction } from './commands.ts';
import type { Components } from './components.ts';
import type { SimContent } from './content.ts';
import type { SimErrorCode, SimEvent } from './events.ts';
import type { AnyContentFace } from './faces/content.ts';
import type { AnyPersistFace } from './faces/persist.ts';
import type { WireFace } from './faces/wire.ts';
import type { Hasher } from './hasher.ts';
import type { PersistOutbox } from './persist-intents.ts';
import type { Rng } from './rng.ts';
import type { Skill } from './skills.ts';
import type { SpatialGrid } from './spatial-grid.ts';

/**
 * The shapes the world, a feature and a plan are made of. They name each other (a world holds its plan,
 * a plan holds features, a feature's handlers take a world), so they live in one file that imports only
 * leaf files; world.ts, feature.ts and plan.ts hold the functions and re-export these types.
 */

export interface PlayerData {
  eid: number;
  characterId: string;
  accountId: string;
  /** Authoritative character state (inventory, equipment, bank, coins, skills). Position and health
   *  live in components while in the world and are copied back by snapshotCharacter(). */
  state: CharacterState;
  admin: boolean;
  /** Send player:sync after this tick. */
  syncDirty: boolean;
  joinedTick: number;
}

export interface WorldOptions {
  content: SimContent;
  seed: number;
  /** Most entities alive at once (typed-array size). */
  capacity?: number;
  /** View distance in tiles (contract: 15..64). */
  viewDistance?: number;
  /** Length of a tick in ms, to turn seconds-based rules (trade expiry) into ticks. */
  tickMs?: number;
  /** Pathfinding budget: nodes A* may expand per tick across all requests. */
  pathBudget?: number;
  /** Game rules an operator may set (defaults in the features). */
  rules?: Partial<GameRules>;
}

/** Settings of the game's rules, from the server's configuration. */
export interface GameRules {
  /** Seconds between two completed home teleports (HOME_TELEPORT_COOLDOWN). */
  homeTeleportCooldownSeconds: number;
}

export interface CoreWorldOptions extends WorldOptions {
  plan: Plan;
}

/**
 * The game world: the bitecs world and its components, the side tables for data that is not numeric,
 * and the per-tick outputs (events, spawns, despawns, persistence intents). Created per instance:
 * no module-level state. Time is `tick`; randomness is `rng`.
 */
export interface GameWorld {
  readonly ecs: World;
  readonly c: Components;
  readonly content: SimContent;
  readonly rng: Rng;
  readonly capacity: number;
  readonly viewDistance: number;
  readonly tickMs: number;
  tick: number;
  /**
   * Wall-clock time of this tick (epoch ms), supplied by the loop: for timestamps in events, and for the
   * few rules that must outlast a restart (a persisted cooldown). Never read from a clock in ecs/.
   */
  nowMs: number;
  readonly grid: SpatialGrid;
  /** Stable wire id per eid (eids are reused, wire ids never). */
  readonly wireIds: (string | undefined)[];
  readonly eidByWireId: Map<string, number>;
  readonly players: Map<string, PlayerData>;
  readonly playerByEid: Map<number, PlayerData>;
  /** Lower-cased name -> player, for private messages and admin commands. */
  readonly playersByName: Map<string, PlayerData>;
  /** The features of this world, compiled: command and action tables, systems, reactions. */
  readonly plan: Plan;
  /** The options the world was made with (feature states read their settings here). */
  readonly options: Readonly<WorldOptions>;
  /** A feature's per-world state, created on first use. */
  get<S>(key: StateKey<S>): S;
  // ---- per-tick outputs, reset at the start of every tick ----
  events: SimEvent[];
  /** Entities created this tick. */
  spawned: number[];
  /** Entities removed this tick (their eids are freed at the start of the next tick). */
  despawned: { eid: number; wireId: string }[];
  /** Entities whose Replicated.dirty mask is non-zero this tick. */
  changed: number[];
  persist: PersistOutbox;
  /** eids to free at the start of the next tick (so replication can still read them this tick). */
  pendingRemoval: number[];
}

/**
 * The phases of a tick, in order. A system names its phase; within a phase systems run in the order of
 * their features in FEATURES. Phases without systems are free slots for features to come.
 */
export const PHASES = [
  'pathfinding',
  'movement',
  'npcs',
  'combat',
  'skills',
  'interactions',
  'items',
  'death',
  'guard',
] as const;
export type Phase = (typeof PHASES)[number];

export interface SystemSpec {
  readonly name: string;
  readonly phase: Phase;
  run(world: GameWorld): void;
}

export type CommandHandler<T extends CommandType> = (world: GameWorld, cmd: CommandOf<T>) => void;
export type CommandHandlers = { readonly [T in CommandType]?: CommandHandler<T> };

/** A `player:action` verb on a target (an entity's wire id). */
export type ActionHandler = (
  world: GameWorld,
  player: PlayerData,
  targetId: string,
  origin: string | undefined,
) => void;

/**
 * A verb with a reach: a target farther than `reach` tiles (Chebyshev) is walked to first, along a
 * server path, and `run` is called on arrival (ecs/features/interaction). `reach` may depend on the
 * player and the target (a weapon's range).
 */
export interface ReachAction {
  readonly reach: number | ((world: GameWorld, player: PlayerData, targetEid: number) => number);
  readonly run: ActionHandler;
  /**
   * The verb changes the player's items (a pickup): a lock on them (itemsLocked) is answered before any
   * other condition, the target's included, as for every item command.
   */
  readonly changesItems?: boolean;
}

export type ActionSpec = ActionHandler | ReachAction;

/** Why a player's items are locked: the error code and message sent to whoever tried to change them. */
export interface ItemLock {
  code: 'INTERFACE_BLOCKED' | 'BUSY';
  message: string;
}

export type LeaveReason = CommandOf<'leave'>['reason'];

/** Why a player's command is not applied: the error code and message its sender gets. */
export interface Refusal {
  code: SimErrorCode;
  message: string;
}

/** What a feature reacts to, instead of other features calling it by hand. */
export interface Reactions {
  /** A player entered the world (its entity, health and state are set), in FEATURES order. */
  readonly join?: (world: GameWorld, player: PlayerData) => void;
  /**
   * Whether this feature refuses a player's command now (a player crossing an obstacle may not walk).
   * Asked in FEATURES order before the command is applied; the first refusal is sent as an error and the
   * command is dropped. Not asked for join, leave, item transaction results or world commands.
   */
  readonly refuse?: (world: GameWorld, player: PlayerData, cmd: Command) => Refusal | null;
  /**
   * A player is about to leave the world (before its final snapshot). Run in reverse FEATURES order: a
   * feature is torn down before the features it uses (a trade ends before the transaction guard runs).
   */
  readonly leave?: (world: GameWorld, player: PlayerData, reason: LeaveReason) => void;
  /** A player asked to move or is moved by force (teleport, respawn): open interfaces close. */
  readonly move?: (world: GameWorld, player: PlayerData) => void;
  /** A player died, before anything drops. */
  readonly death?: (world: GameWorld, player: PlayerData) => void;
  /**
   * Whether this feature holds the player's items and coins now. Asked in reverse FEATURES order, the
   * first lock found wins: an open interface (a trade) is reported before the lock of a feature it uses.
   */
  readonly itemsLocked?: (world: GameWorld, player: PlayerData) => ItemLock | null;
  /**
   * `inventory:use` of an item (on nothing, another slot or an entity), once the inventory checked the
   * slots and the lock: true when this feature handled it. Tried in FEATURES order.
   */
  readonly itemUse?: (world: GameWorld, player: PlayerData, cmd: CommandOf<'inventoryUse'>) => boolean;
  /** A player attacked: it swung, shot or cast at a target (combat). */
  readonly attacked?: (world: GameWorld, player: PlayerData) => void;
  /** A player took damage (from combat or any other source). */
  readonly hit?: (world: GameWorld, player: PlayerData, sourceId: string | undefined) => void;
  /** A player starts a `player:action` (before the verb's feature handles it). */
  readonly actionStarted?: (world: GameWorld, player: PlayerData, verb: PlayerAction) => void;
  /**
   * Whether this feature keeps an entity within view distance out of a player's view (a ground item still
   * private to another player). What a player does not see does not exist for its commands (inViewOf).
   */
  readonly hides?: (world: GameWorld, eid: number, viewer: PlayerData) => boolean;
  /** A ground item despawns unclaimed (not when picked up). */
  readonly groundItemExpired?: (world: GameWorld, eid: number) => void;
  /** A player killed an NPC (`npcId` is the manifest id), after the death is applied. */
  readonly npcKilled?: (world: GameWorld, player: PlayerData, npcId: string) => void;
  /** A player gathered items from a resource (woodcutting, mining, fishing...). */
  readonly itemGathered?: (world: GameWorld, player: PlayerData, itemId: string, quantity: number) => void;
  /** A player's level in a skill changed (experience gained, or an admin set it). */
  readonly levelChanged?: (world: GameWorld, player: PlayerData, skill: Skill) => void;
  /** A player made items by processing (cooking, smelting...); `itemId` `fire` for a fire lit. */
  readonly itemMade?: (world: GameWorld, player: PlayerData, itemId: string, quantity: number) => void;
  /**
   * A player opened an interface (`kind`: 'bank', 'shop', 'dialogue', 'trade'...): features with another
   * one open close theirs. Called by the opener before it opens, so it must ignore its own kind.
   */
  readonly interfaceOpened?: (world: GameWorld, player: PlayerData, kind: string) => void;
}

/**
 * A feature's per-world state: `world.get(key)` creates it on first use and keeps it with that world, so
 * nothing is module-level. Declared in the feature's state file (systems import that, not feature.ts).
 */
export interface StateKey<S> {
  readonly name: string;
  create(world: GameWorld): S;
}

export interface FeatureSpec<
  S,
  C extends CommandHandlers,
  A extends PlayerAction = PlayerAction,
  W extends WireFace = WireFace,
  N extends AnyContentFace = AnyContentFace,
  P extends AnyPersistFace = AnyPersistFace,
> {
  readonly name: string;
  /** Per-world state of this feature (see StateKey). */
  readonly state?: StateKey<S>;
  /** Command handlers by command type; every command type is handled by exactly one feature. */
  readonly commands?: C;
  /**
   * Commands about the world rather than a player in it (e.g. another world's news): applied even when
   * their characterId is not in this world. Any other command of an absent player is dropped.
   */
  readonly worldCommands?: readonly CommandType[];
  /**
   * Commands that bring a player something rather than carry its intent (an outcome, a message or list
   * from elsewhere, entering and leaving): applied to a player at 0 health too. Any other command of a
   * player at 0 health is refused with BUSY until it respawns (core/tick.ts).
   */
  readonly deliveries?: readonly CommandType[];
  /**
   * Commands that change nothing anyone else sees of the world (a private message): applied when they
   * arrive, between ticks, under the same rules as in a tick, and what they emit is delivered at once
   * (core/tick.ts applyBetweenTicks). `true`, or a test of the command (a chat line only with `to`).
   */
  readonly immediate?: { readonly [T in CommandType]?: true | ((cmd: CommandOf<T>) => boolean) };
  /** `player:action` verbs this feature answers. */
  readonly actions?: { readonly [V in A]: ActionSpec };
  readonly systems?: readonly SystemSpec[];
  readonly on?: Reactions;
  /** Fill a new world with this feature's content (NPC spawns, resource nodes), in FEATURES order. */
  readonly populate?: (world: GameWorld) => void;
  /** Mix this feature's simulation state into the world hash (determinism checks). */
  readonly hash?: (world: GameWorld, h: Hasher) => void;
  /** The features whose exported API this one calls; each must come earlier in FEATURES. */
  readonly uses?: readonly AnyFeature[];
  // The faces: what the outer layers read of this feature (declared in its face files, attached here).
  // Nothing a tick runs calls them.
  /** Wire face (its wire.ts): client and server events, verb lines; net/protocol assembles them. */
  readonly wire?: W;
  /** Content face (its content.ts): its manifests, checks and the SimContent part it builds; world/ runs them. */
  readonly content?: N;
  /** Persistence face (its persist.ts): per-character JSON state kept across logins; persistence/ stores it. */
  readonly persist?: P;
}

export type Feature<
  S = unknown,
  C extends CommandHandlers = CommandHandlers,
  A extends PlayerAction = PlayerAction,
  W extends WireFace = WireFace,
  N extends AnyContentFace = AnyContentFace,
  P extends AnyPersistFace = AnyPersistFace,
> = FeatureSpec<S, C, A, W, N, P>;

// biome-ignore lint/suspicious/noExplicitAny: a list of features of any state and command types
export type AnyFeature = Feature<any, any, any, any, any, any>;

/**
 * The features of a world compiled into tables: one handler per command type, one per action verb, the
 * systems in tick order, and the reaction lists. Built once per feature list (schedule.ts) and shared
 * by every world created with it; it holds no state.
 */
export interface Plan {
  readonly features: readonly AnyFeature[];
  readonly handlers: ReadonlyMap<CommandType, (world: GameWorld, cmd: Command) => void>;
  readonly actions: ReadonlyMap<PlayerAction, ActionSpec>;
  /** Command types applied whatever their characterId (features' worldCommands). */
  readonly worldCommands: ReadonlySet<CommandType>;
  /** Command types applied to a player at 0 health too (features' deliveries). */
  readonly deliveries: ReadonlySet<CommandType>;
  /** Command types applied between ticks when they arrive (features' immediate), with their test. */
  readonly immediate: ReadonlyMap<CommandType, (cmd: Command) => boolean>;
  /** Systems sorted by phase, then by their feature's position in the list. */
  readonly systems: readonly (SystemSpec & { readonly feature: string })[];
  readonly join: readonly NonNullable<Reactions['join']>[];
  readonly refuse: readonly NonNullable<Reactions['refuse']>[];
  readonly leave: readonly NonNullable<Reactions['leave']>[];
  readonly move: readonly NonNullable<Reactions['move']>[];
  readonly death: readonly NonNullable<Reactions['death']>[];
  readonly itemsLocked: readonly NonNullable<Reactions['itemsLocked']>[];
  readonly groundItemExpired: readonly NonNullable<Reactions['groundItemExpired']>[];
  readonly hides: readonly NonNullable<Reactions['hides']>[];
  readonly itemUse: readonly NonNullable<Reactions['itemUse']>[];
  readonly hit: readonly NonNullable<Reactions['hit']>[];
  readonly attacked: readonly NonNullable<Reactions['attacked']>[];
  readonly actionStarted: readonly NonNullable<Reactions['actionStarted']>[];
  readonly npcKilled: readonly NonNullable<Reactions['npcKilled']>[];
  readonly itemGathered: readonly NonNullable<Reactions['itemGathered']>[];
  readonly itemMade: readonly NonNullable<Reactions['itemMade']>[];
  readonly levelChanged: readonly NonNullable<Reactions['levelChanged']>[];
  readonly interfaceOpened: readonly NonNullable<Reactions['interfaceOpened']>[];
  readonly populate: readonly ((world: GameWorld) => void)[];
  readonly hash: readonly ((world: GameWorld, h: Hasher) => void)[];
}
