import { defineState } from '../../core/feature.ts';
import type { HitStyle } from './events.ts';
import type { CombatStyle } from './formulas.ts';

/** One entity's fight: whom it attacks, and the target's tile when it last set off after it. */
export interface Fight {
  targetEid: number;
  /** The target's wire id: an eid freed and reused is not the same target. */
  targetId: string;
  chaseX: number;
  chaseZ: number;
}

/** What combat knows about an NPC beyond the npcs feature: where it lives and whether it is going home. */
export interface NpcHome {
  homeX: number;
  homeZ: number;
  returning: boolean;
}

/** A hit as its target's viewers see it (world:update `hits`): who dealt it, how much (0: a miss), how. */
export interface ShownHit {
  attackerId: string;
  damage: number;
  style: HitStyle;
}
/** A death as its viewers see it (world:update `death`): the last hitter. */
export interface ShownDeath {
  killerId: string | null;
}
/** What one tick shows on an entity (shown.ts). */
export interface Shown {
  hits: ShownHit[];
  death?: ShownDeath;
}

export interface CombatState {
  /** Fights by attacker eid (players and NPCs), in the order they started. */
  readonly fights: Map<number, Fight>;
  /** Tick at which each eid may swing next (kept across targets: switching does not reset it). */
  readonly readyAt: Map<number, number>;
  /** The last entity that hit each eid (its wire id): the killer when it dies. */
  readonly lastHitBy: Map<number, string>;
  readonly npcHomes: Map<number, NpcHome>;
  /** NPCs waiting to come back: the tick and the content spawn entry. */
  respawns: { tick: number; spawnIndex: number }[];
  /** Per character: style and auto-retaliate (default accurate, on). */
  readonly styles: Map<string, CombatStyle>;
  readonly noRetaliate: Set<string>;
  /** Per character: the spell it autocasts (combat:spell). */
  readonly spells: Map<string, string>;
  /** Hits and deaths shown this tick, by eid (shown.ts; valid for shownTick only, never hashed). */
  readonly shown: Map<number, Shown>;
  shownTick: number;
}

export const COMBAT = defineState<CombatState>('combat', () => ({
  fights: new Map(),
  readyAt: new Map(),
  lastHitBy: new Map(),
  npcHomes: new Map(),
  respawns: [],
  styles: new Map(),
  noRetaliate: new Set(),
  spells: new Map(),
  shown: new Map(),
  shownTick: -1,
}));

/** Ticks between attacks without a weapon that says otherwise. */
export const DEFAULT_ATTACK_SPEED = 4;
