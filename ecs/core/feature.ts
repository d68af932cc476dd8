import type { PlayerAction } from './commands.ts';
import type { AnyContentFace } from './faces/content.ts';
import type { AnyPersistFace } from './faces/persist.ts';
import type { WireFace } from './faces/wire.ts';
import type { AnyFeature, CommandHandlers, Feature, FeatureSpec, GameWorld, StateKey } from './shapes.ts';

export {
  type ActionHandler,
  type ActionSpec,
  type AnyFeature,
  type CommandHandler,
  type CommandHandlers,
  type Feature,
  type FeatureSpec,
  type ItemLock,
  type LeaveReason,
  PHASES,
  type Phase,
  type ReachAction,
  type Reactions,
  type Refusal,
  type StateKey,
  type SystemSpec,
} from './shapes.ts';

/**
 * A feature: one gameplay function (trade, bank, movement...) declared in one object. The schedule lists
 * the features; the command table, the action table, the system order and the reaction lists are built
 * from that list (plan.ts), so adding a feature never edits a hub.
 */

export function defineState<S>(name: string, create: (world: GameWorld) => S): StateKey<S> {
  return Object.freeze({ name, create });
}

export function defineFeature<
  S = undefined,
  const C extends CommandHandlers = Record<never, never>,
  const A extends PlayerAction = never,
  const W extends WireFace = Record<never, never>,
  const N extends AnyContentFace = never,
  const P extends AnyPersistFace = never,
>(spec: FeatureSpec<S, C, A, W, N, P>): Feature<S, C, A, W, N, P> {
  return Object.freeze({ ...spec });
}

/** The command types a list of features handles (for the exhaustiveness check in the schedule). */
export type HandledCommands<F extends readonly AnyFeature[]> = {
  [I in keyof F]: F[I] extends Feature<unknown, infer C, infer _A, infer _W, infer _N, infer _P>
    ? keyof C
    : never;
}[number];

/** The `player:action` verbs a list of features answers (for the same check of verbs). */
export type HandledActions<F extends readonly AnyFeature[]> = {
  [I in keyof F]: F[I] extends Feature<unknown, infer _C, infer A, infer _W, infer _N, infer _P> ? A : never;
}[number];
