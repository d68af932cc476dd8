import type { Command, CommandType, PlayerAction } from './commands.ts';
import {
  type ActionSpec,
  type AnyFeature,
  type CommandHandler,
  type GameWorld,
  PHASES,
  type Plan,
  type Reactions,
} from './shapes.ts';

export type { Plan } from './shapes.ts';

/** Compile a feature list; throws on two features claiming one command, verb or name, or a bad `uses`. */
export function buildPlan(features: readonly AnyFeature[]): Plan {
  const names = new Set<string>();
  const handlers = new Map<CommandType, (world: GameWorld, cmd: Command) => void>();
  const actions = new Map<PlayerAction, ActionSpec>();
  features.forEach((f, i) => {
    if (names.has(f.name)) throw new Error(`two features are named ${f.name}`);
    names.add(f.name);
    for (const used of f.uses ?? []) {
      if (features.indexOf(used) < 0 || features.indexOf(used) >= i)
        throw new Error(`feature ${f.name} uses ${used.name}, which must come before it in the list`);
    }
    for (const [type, handler] of Object.entries(f.commands ?? {})) {
      if (handlers.has(type as CommandType)) throw new Error(`command ${type} is handled twice (${f.name})`);
      handlers.set(type as CommandType, handler as CommandHandler<CommandType> as never);
    }
    for (const [verb, handler] of Object.entries(f.actions ?? {})) {
      if (actions.has(verb as PlayerAction)) throw new Error(`action ${verb} is handled twice (${f.name})`);
      actions.set(verb as PlayerAction, handler as ActionSpec);
    }
  });
  const systems = features
    .flatMap((f, order) => (f.systems ?? []).map((s) => ({ ...s, feature: f.name, order })))
    .sort((a, b) => PHASES.indexOf(a.phase) - PHASES.indexOf(b.phase) || a.order - b.order)
    .map(({ order: _order, ...s }) => s);
  const on = <K extends keyof Reactions>(k: K) =>
    features.flatMap((f) => (f.on?.[k] ? [f.on[k] as NonNullable<Reactions[K]>] : []));
  return {
    features,
    handlers,
    actions,
    worldCommands: new Set(features.flatMap((f) => f.worldCommands ?? [])),
    deliveries: new Set(features.flatMap((f) => f.deliveries ?? [])),
    immediate: new Map(
      features.flatMap((f) =>
        Object.entries(f.immediate ?? {}).map(([type, test]) => [
          type as CommandType,
          test === true ? () => true : (test as (cmd: Command) => boolean),
        ]),
      ),
    ),
    systems,
    join: on('join'),
    refuse: on('refuse'),
    leave: on('leave').reverse(),
    move: on('move'),
    death: on('death'),
    itemsLocked: on('itemsLocked').reverse(),
    groundItemExpired: on('groundItemExpired'),
    hides: on('hides'),
    itemUse: on('itemUse'),
    hit: on('hit'),
    attacked: on('attacked'),
    actionStarted: on('actionStarted'),
    npcKilled: on('npcKilled'),
    itemGathered: on('itemGathered'),
    itemMade: on('itemMade'),
    levelChanged: on('levelChanged'),
    interfaceOpened: on('interfaceOpened'),
    populate: features.flatMap((f) => (f.populate ? [f.populate] : [])),
    hash: features.flatMap((f) => (f.hash ? [f.hash] : [])),
  };
}
