import type { Command, CommandType } from './commands.ts';
import type { SimEvent } from './events.ts';
import { commandRefusal } from './reactions.ts';
import { beginTick, emitError, type GameWorld } from './world.ts';

/** Optional per-phase timing, supplied by the tick loop (the simulation itself never reads a clock). */
export interface PhaseTimer {
  start(phase: string): void;
  end(phase: string): void;
}

/** Commands that may arrive for a character not (or no longer) in the world. */
const ALWAYS_APPLIED: ReadonlySet<CommandType> = new Set(['join', 'txResult']);
/** Commands no feature may refuse: entering and leaving, and the results of item transactions. */
const NEVER_REFUSED: ReadonlySet<CommandType> = new Set(['join', 'leave', 'txResult']);

/**
 * Apply commands in arrival order. Those of players not in the world (disconnected, not yet joined) are
 * dropped. A player at 0 health is dead until the death system respawns it: its own commands are refused
 * with BUSY (so none can change its items, walk it away or heal it in the meantime); deliveries (results,
 * messages, leaving) still apply. Then a feature may hold back a player's command (on.refuse: a player
 * crossing an obstacle may not walk), except entering, leaving, transaction results and world commands.
 */
export function applyCommands(world: GameWorld, commands: readonly Command[]): void {
  const health = world.c.Health.current;
  const refusing = world.plan.refuse.length > 0;
  for (const cmd of commands) {
    const player = world.players.get(cmd.characterId);
    const aboutWorld = world.plan.worldCommands.has(cmd.type);
    if (player === undefined) {
      if (!ALWAYS_APPLIED.has(cmd.type) && !aboutWorld) continue;
    } else {
      if ((health[player.eid] as number) <= 0 && !world.plan.deliveries.has(cmd.type)) {
        emitError(world, player.characterId, 'BUSY', 'you are dead until you respawn', cmd.origin);
        continue;
      }
      if (refusing && !aboutWorld && !NEVER_REFUSED.has(cmd.type)) {
        const refusal = commandRefusal(world, player, cmd);
        if (refusal) {
          emitError(world, player.characterId, refusal.code, refusal.message, cmd.origin);
          continue;
        }
      }
    }
    const handler = world.plan.handlers.get(cmd.type);
    if (handler) handler(world, cmd);
  }
}

/** A command its feature declared immediate (shapes.ts FeatureSpec.immediate). */
export function isImmediate(world: GameWorld, cmd: Command): boolean {
  const test = world.plan.immediate.get(cmd.type);
  return test?.(cmd) === true;
}

/**
 * Apply one immediate command between ticks, under the same rules as applyCommands (a dead player's
 * refused, a feature may hold it back), and return the events it emitted for delivery at once. The
 * previous tick's events are left as they were. Game time is the last tick's: an immediate command
 * reads the world and changes only what no one else sees (a sender's private-message allowance).
 */
export function applyBetweenTicks(world: GameWorld, cmd: Command): SimEvent[] {
  const tickEvents = world.events;
  world.events = [];
  try {
    applyCommands(world, [cmd]);
    return world.events;
  } finally {
    world.events = tickEvents;
  }
}

/** Advance the world one tick: begin, commands, then every system in schedule order. */
export function stepWorld(
  world: GameWorld,
  commands: readonly Command[],
  nowMs: number,
  timer?: PhaseTimer,
): void {
  beginTick(world, nowMs);
  timer?.start('commands');
  applyCommands(world, commands);
  timer?.end('commands');
  for (const system of world.plan.systems) {
    timer?.start(system.name);
    system.run(world);
    timer?.end(system.name);
  }
}
