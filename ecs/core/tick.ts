import type { Command, CommandType } from './commands.ts';
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

export function applyCommands(world: GameWorld, commands: readonly Command[]): void {
  const refusing = world.plan.refuse.length > 0;
  for (const cmd of commands) {
    const aboutWorld = world.plan.worldCommands.has(cmd.type);
    // Commands of players who are not in the world (disconnected, not yet joined) are dropped.
    if (!ALWAYS_APPLIED.has(cmd.type) && !world.players.has(cmd.characterId) && !aboutWorld) continue;
    if (refusing && !aboutWorld && !NEVER_REFUSED.has(cmd.type)) {
      const player = world.players.get(cmd.characterId);
      const refusal = player ? commandRefusal(world, player, cmd) : null;
      if (refusal) {
        emitError(world, cmd.characterId, refusal.code, refusal.message, cmd.origin);
        continue;
      }
    }
    const handler = world.plan.handlers.get(cmd.type);
    if (handler) handler(world, cmd);
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
