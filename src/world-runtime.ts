import type { Registry } from 'prom-client';
import { type Command, CommandQueue } from '../ecs/commands.ts';
import type { SimContent } from '../ecs/content.ts';
import { populateWorld } from '../ecs/npcs/populate.ts';
import { createGameWorld, type GameWorld } from '../ecs/world.ts';
import { Replicator } from '../net/replication/replicator.ts';
import type { Delivery } from '../net/session/outbound.ts';
import type { PersistenceSink } from './persistence-handoff.ts';
import { type Clock, type TickLogger, TickLoop, type TickStatus } from './tick-loop.ts';
import { createTickMetrics } from './tick-metrics.ts';

/**
 * The running world as main.ts wires it: world (populated from content), command queue, replication
 * and the tick loop. Adapters call enqueue(); /status reads tickStatus(); shutdown() stops the loop and
 * runs one last tick in which every player leaves, so each is handed to persistence and saved.
 */

export interface WorldRuntimeOptions {
  content: SimContent;
  seed: number;
  tickMs: number;
  viewDistance?: number;
  delivery: Delivery;
  persistence?: PersistenceSink;
  logger: TickLogger;
  registry?: Registry;
  clock?: Clock;
}

export class WorldRuntime {
  readonly world: GameWorld;
  readonly queue = new CommandQueue();
  readonly replicator: Replicator;
  readonly loop: TickLoop;

  constructor(opts: WorldRuntimeOptions) {
    this.world = createGameWorld({
      content: opts.content,
      seed: opts.seed,
      tickMs: opts.tickMs,
      viewDistance: opts.viewDistance,
    });
    populateWorld(this.world);
    this.replicator = new Replicator(this.world);
    this.loop = new TickLoop({
      world: this.world,
      queue: this.queue,
      replicator: this.replicator,
      delivery: opts.delivery,
      persistence: opts.persistence,
      logger: opts.logger,
      metrics: opts.registry ? createTickMetrics(opts.registry) : undefined,
      clock: opts.clock,
      tickMs: opts.tickMs,
    });
  }

  enqueue(command: Command): void {
    this.queue.push(command);
  }

  start(): void {
    this.loop.start();
  }

  /** The shape net/routes/status.ts's StatusSource.tick() expects, plus the phase split. */
  tickStatus(): TickStatus {
    return this.loop.status();
  }

  playersOnline(): number {
    return this.world.players.size;
  }

  async shutdown(): Promise<void> {
    this.loop.stop();
    for (const id of this.world.players.keys())
      this.queue.push({ type: 'leave', characterId: id, reason: 'logout' });
    await Promise.all(this.loop.runTick());
  }
}
