import type { CommandOf, CommandType, PlayerAction } from './commands.ts';
import type { Hasher } from './hasher.ts';
import type { Skill } from './skills.ts';
import type { GameWorld, PlayerData } from './world.ts';

/**
 * A feature: one gameplay function (trade, bank, movement...) declared in one object. The schedule lists
 * the features; the command table, the action table, the system order and the reaction lists are built
 * from that list (plan.ts), so adding a feature never edits a hub.
 */

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

/** What a feature reacts to, instead of other features calling it by hand. */
export interface Reactions {
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

export function defineState<S>(name: string, create: (world: GameWorld) => S): StateKey<S> {
  return Object.freeze({ name, create });
}

export interface FeatureSpec<S, C extends CommandHandlers> {
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
  /** `player:action` verbs this feature answers. */
  readonly actions?: { readonly [A in PlayerAction]?: ActionSpec };
  readonly systems?: readonly SystemSpec[];
  readonly on?: Reactions;
  /** Fill a new world with this feature's content (NPC spawns, resource nodes), in FEATURES order. */
  readonly populate?: (world: GameWorld) => void;
  /** Mix this feature's simulation state into the world hash (determinism checks). */
  readonly hash?: (world: GameWorld, h: Hasher) => void;
  /** The features whose exported API this one calls; each must come earlier in FEATURES. */
  readonly uses?: readonly AnyFeature[];
}

export type Feature<S = unknown, C extends CommandHandlers = CommandHandlers> = FeatureSpec<S, C>;

// biome-ignore lint/suspicious/noExplicitAny: a list of features of any state and command types
export type AnyFeature = Feature<any, any>;

export function defineFeature<S = undefined, const C extends CommandHandlers = Record<never, never>>(
  spec: FeatureSpec<S, C>,
): Feature<S, C> {
  return Object.freeze({ ...spec });
}

/** The command types a list of features handles (for the exhaustiveness check in the schedule). */
export type HandledCommands<F extends readonly AnyFeature[]> = {
  [I in keyof F]: F[I] extends Feature<unknown, infer C> ? keyof C : never;
}[number];
