import { type CharacterState, emptyInventory, type ItemStack } from '../../ecs/core/character-state.ts';
import type { Command } from '../../ecs/core/commands.ts';
import type { SimContent } from '../../ecs/core/content.ts';
import type { SimEvent, SimEventKind } from '../../ecs/core/events.ts';
import type { AnyFeature } from '../../ecs/core/feature.ts';
import { buildPlan } from '../../ecs/core/plan.ts';
import { newSkills } from '../../ecs/core/skills.ts';
import { stepWorld } from '../../ecs/core/tick.ts';
import { createWorldFromPlan, type GameWorld, type WorldOptions } from '../../ecs/core/world.ts';
import { createGameWorld } from '../../ecs/game.ts';
import { FEATURES } from '../../ecs/schedule.ts';
import { testContent } from '../helpers/sim-content.ts';

/**
 * Scenario harness: a world from content with a fixed seed, players added by command, commands pushed,
 * N ticks stepped, and every tick's events kept per observer. No sockets, no timers.
 */

export interface NewPlayer {
  name: string;
  x?: number;
  z?: number;
  inventory?: (ItemStack | null)[];
  coins?: number;
  bank?: ItemStack[];
  health?: number;
}

export class Scenario {
  readonly world: GameWorld;
  private pending: Command[] = [];
  /** Every event of every tick, in order. */
  readonly log: (SimEvent & { tick: number })[] = [];
  /** Hooks run after every tick (replication observers, persistence fakes). */
  readonly afterTick: ((world: GameWorld) => void)[] = [];
  private nextId = 1;

  /**
   * `features`: more features registered after the game's own (a feature under test, a probe);
   * `without`: game features left out (what a world without them does).
   */
  constructor(
    opts: Partial<WorldOptions> & {
      content?: SimContent;
      features?: readonly AnyFeature[];
      without?: readonly AnyFeature[];
    } = {},
  ) {
    const { features, without, ...rest } = opts;
    const options = { content: opts.content ?? testContent(), seed: opts.seed ?? 42, ...rest };
    this.world =
      features?.length || without?.length
        ? createWorldFromPlan({
            ...options,
            plan: buildPlan([...FEATURES.filter((f) => !without?.includes(f)), ...(features ?? [])]),
          })
        : createGameWorld(options);
  }

  /** Queue a player's join and step one tick so it is in the world. Returns its character id. */
  addPlayer(p: NewPlayer): string {
    const id = `char-${this.nextId++}-${p.name.toLowerCase()}`;
    const spawn = this.world.content.spawn;
    const inventory = emptyInventory();
    (p.inventory ?? []).forEach((s, i) => {
      inventory[i] = s;
    });
    const state: CharacterState = {
      id,
      accountId: `acct-${id}`,
      name: p.name,
      position: { x: p.x ?? spawn.x, y: 0, z: p.z ?? spawn.z },
      health: p.health ?? 100,
      coins: p.coins ?? 0,
      skills: newSkills(),
      inventory,
      equipment: {},
      bank: p.bank ?? [],
    };
    this.push({ type: 'join', characterId: id, accountId: state.accountId, state });
    this.step();
    return id;
  }

  push(cmd: Command): void {
    this.pending.push(cmd);
  }

  /** Step n ticks; commands pushed so far are applied in the first. */
  step(n = 1, nowMs = 0): void {
    for (let i = 0; i < n; i++) {
      const cmds = this.pending;
      this.pending = [];
      stepWorld(this.world, cmds, nowMs + this.world.tick * this.world.tickMs);
      for (const e of this.world.events) this.log.push({ ...e, tick: this.world.tick });
      for (const hook of this.afterTick) hook(this.world);
    }
  }

  eventsFor(characterId: string, kind?: SimEventKind): (SimEvent & { tick: number })[] {
    return this.log.filter((e) => e.to === characterId && (kind === undefined || e.kind === kind));
  }

  /** Like eventsFor with a kind, typed by that kind. */
  eventsOf<K extends SimEventKind>(
    characterId: string,
    kind: K,
  ): (Extract<SimEvent, { kind: K }> & { tick: number })[] {
    return this.eventsFor(characterId, kind) as (Extract<SimEvent, { kind: K }> & { tick: number })[];
  }

  lastEvent<K extends SimEventKind>(
    characterId: string,
    kind: K,
  ): Extract<SimEvent, { kind: K }> | undefined {
    const all = this.eventsFor(characterId, kind);
    return all[all.length - 1] as Extract<SimEvent, { kind: K }> | undefined;
  }

  player(characterId: string) {
    const p = this.world.players.get(characterId);
    if (!p) throw new Error(`${characterId} is not in the world`);
    return p;
  }

  position(characterId: string): { x: number; z: number } {
    const eid = this.player(characterId).eid;
    return { x: this.world.c.Position.x[eid] as number, z: this.world.c.Position.z[eid] as number };
  }
}
