import type { Registry } from 'prom-client';
import type { CharacterState } from '../ecs/core/character-state.ts';
import { type Command, CommandQueue } from '../ecs/core/commands.ts';
import type { SimContent } from '../ecs/core/content.ts';
import { populateWorld } from '../ecs/core/populate.ts';
import { applyBetweenTicks, isImmediate } from '../ecs/core/tick.ts';
import { entityCounts, type GameRules, type GameWorld, snapshotCharacter } from '../ecs/core/world.ts';
import { agentSurroundings, type Surroundings } from '../ecs/features/agents/index.ts';
import { onlineWorld } from '../ecs/features/social/index.ts';
import { createGameWorld } from '../ecs/game.ts';
import { Replicator } from '../net/replication/replicator.ts';
import { inboundLimits } from '../net/session/inbound.ts';
import { type Delivery, deliverEvents } from '../net/session/outbound.ts';
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
  rules?: Partial<GameRules>;
  delivery: Delivery;
  persistence?: PersistenceSink;
  /** SAVE_INTERVAL in ms (spaces dirty hand-overs: TickLoopOptions). */
  saveIntervalMs?: number;
  logger: TickLogger;
  registry?: Registry;
  clock?: Clock;
  /** After every tick, once replication and persistence have their share (the social bridge). */
  afterTick?: (world: GameWorld) => void;
  /** After a command applied between ticks (a private message to hand to another world). */
  afterImmediate?: (world: GameWorld) => void;
}

export class WorldRuntime {
  readonly world: GameWorld;
  /** leaveAndSave() callers waiting for a character's leave to be applied and saved. */
  private readonly leaving = new Map<string, (() => void)[]>();
  readonly queue: CommandQueue;
  readonly replicator: Replicator;
  readonly loop: TickLoop;
  private readonly delivery: Delivery;
  private readonly afterImmediate: ((world: GameWorld) => void) | undefined;

  constructor(opts: WorldRuntimeOptions) {
    this.delivery = opts.delivery;
    this.afterImmediate = opts.afterImmediate;
    this.queue = new CommandQueue(inboundLimits(opts.tickMs));
    this.world = createGameWorld({
      content: opts.content,
      seed: opts.seed,
      tickMs: opts.tickMs,
      viewDistance: opts.viewDistance,
      ...(opts.rules ? { rules: opts.rules } : {}),
    });
    populateWorld(this.world);
    this.replicator = new Replicator(this.world);
    this.loop = new TickLoop({
      world: this.world,
      queue: this.queue,
      replicator: this.replicator,
      delivery: opts.delivery,
      persistence: opts.persistence,
      saveIntervalMs: opts.saveIntervalMs,
      logger: opts.logger,
      metrics: opts.registry ? createTickMetrics(opts.registry) : undefined,
      clock: opts.clock,
      tickMs: opts.tickMs,
      afterTick: (saves) => {
        this.settleLeaves(saves);
        opts.afterTick?.(this.world);
      },
    });
  }

  /** net/routes/world.ts's LiveWorld. */
  summary(): { tick: number; playersOnline: number; entities: Record<string, number> } {
    const w = this.world;
    return {
      tick: w.tick,
      playersOnline: w.players.size,
      entities: entityCounts(w),
    };
  }

  /** A snapshot of a character in the world (position and health from the simulation), or null. */
  liveCharacter(characterId: string): CharacterState | null {
    const p = this.world.players.get(characterId);
    return p ? snapshotCharacter(this.world, p) : null;
  }

  /** What is around a tile for the agent routes (a read between ticks; changes nothing). */
  agentSurroundings(x: number, z: number, selfId: string | null): Surroundings {
    return agentSurroundings(this.world, x, z, selfId);
  }

  isInWorld(characterId: string): boolean {
    return this.world.players.has(characterId);
  }

  /** The world a character is in (this one or another, as presence announced it), or undefined. */
  onlineWorld(characterId: string): number | undefined {
    return onlineWorld(this.world, characterId);
  }

  /**
   * Queue `leave` and resolve once a tick applied it and the logout save finished (net/session's
   * WorldGate). Resolves at the end of the next tick when the character was not in the world.
   */
  leaveAndSave(characterId: string, reason: 'logout' | 'disconnect' | 'takeover'): Promise<void> {
    this.queue.push({ type: 'leave', characterId, reason });
    return new Promise<void>((resolve) => {
      const list = this.leaving.get(characterId) ?? [];
      list.push(resolve);
      this.leaving.set(characterId, list);
    });
  }

  private settleLeaves(saves: { characterId: string; done: Promise<void> }[]): void {
    if (this.leaving.size === 0) return;
    for (const s of saves) {
      const waiters = this.leaving.get(s.characterId);
      if (!waiters) continue;
      this.leaving.delete(s.characterId);
      void s.done.then(() => {
        for (const w of waiters) w();
      });
    }
    // Leaves of characters that were not in the world: nothing to save.
    for (const [id, waiters] of this.leaving) {
      if (this.world.players.has(id)) continue;
      this.leaving.delete(id);
      for (const w of waiters) w();
    }
  }

  enqueue(command: Command): void {
    if (!this.applyNow(command)) this.queue.push(command);
  }

  /** A command a player sent; false (nothing queued) when its backlog is full (net/session/inbound.ts). */
  offer(command: Command): boolean {
    return this.applyNow(command) || this.queue.offer(command);
  }

  /**
   * A command that needs no tick (a private message, ecs/core/tick.ts applyBetweenTicks) is applied when
   * it arrives and what it emits is sent at once: a whisper waits for no tick, in this world or the
   * next. The network callbacks and the tick run on this one thread, so the world is between ticks here
   * unless a tick's own hand-offs called in (then, and for a player whose join is still queued, it
   * waits in the queue like any command).
   */
  private applyNow(command: Command): boolean {
    if (this.loop.ticking || !isImmediate(this.world, command)) return false;
    if (!this.world.players.has(command.characterId)) return false;
    deliverEvents(applyBetweenTicks(this.world, command), this.delivery);
    this.afterImmediate?.(this.world);
    return true;
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

  private stopping: Promise<void> | undefined;

  /** Idempotent: the graceful shutdown and a forced exit's emergency save share the one last tick. */
  shutdown(): Promise<void> {
    this.stopping ??= (async () => {
      this.loop.stop();
      for (const id of this.world.players.keys())
        this.queue.push({ type: 'leave', characterId: id, reason: 'logout' });
      await Promise.all(this.loop.runTick().map((s) => s.done));
    })();
    return this.stopping;
  }
}
