import type { z } from 'zod';
import { Dirty, ENTITY_TYPE_NAMES, EntityType } from '../../ecs/core/components.ts';
import { combatLevel } from '../../ecs/core/skills.ts';
import type { GameWorld } from '../../ecs/core/world.ts';
import { shownOf, targetIdOf } from '../../ecs/features/combat/index.ts';
import { GROUND_ITEMS, groundItemVisibleTo } from '../../ecs/features/ground-items/index.ts';
import { NPCS } from '../../ecs/features/npcs/index.ts';
import { RESOURCES } from '../../ecs/features/resources/index.ts';
import { STATIONS } from '../../ecs/features/stations/index.ts';
import type { wireEntity } from '../protocol/server-events.ts';

/**
 * The public fields of an entity on the wire (net/protocol wireEntity): every field when it enters a
 * player's view, only the changed ones (by its Replicated.dirty bits) afterwards.
 */

export type WireEntity = z.output<typeof wireEntity>;

/** Dirty bits that produce a change entry (visibility only changes who may see it). */
export const REPLICATED_BITS = ~Dirty.visibility >>> 0;

export function fullEntity(world: GameWorld, eid: number): WireEntity {
  const { c } = world;
  const id = world.wireIds[eid] as string;
  const x = c.Position.x[eid] as number;
  const z = c.Position.z[eid] as number;
  switch (c.Kind.type[eid]) {
    case EntityType.player: {
      const p = world.playerByEid.get(eid);
      return withFight(world, eid, {
        id,
        type: 'player',
        x,
        z,
        name: p?.state.name ?? id,
        level: p ? combatLevel(p.state.skills) : 3,
        health: c.Health.current[eid] as number,
        maxHealth: c.Health.max[eid] as number,
        moving: c.Movement.mode[eid] as number,
      });
    }
    case EntityType.npc: {
      const n = world.get(NPCS).byEid.get(eid);
      return withFight(world, eid, {
        id,
        type: 'npc',
        x,
        z,
        npcId: n?.npcId ?? '',
        name: n?.name ?? '',
        level: n?.level ?? 1,
        health: c.Health.current[eid] as number,
        maxHealth: c.Health.max[eid] as number,
        moving: c.Movement.mode[eid] as number,
      });
    }
    case EntityType.item: {
      const it = world.get(GROUND_ITEMS).byEid.get(eid);
      return { id, type: 'item', x, z, itemId: it?.itemId ?? '', quantity: it?.quantity ?? 1 };
    }
    case EntityType.station: {
      const st = world.get(STATIONS).byEid.get(eid);
      const out: WireEntity = { id, type: 'station', x, z, stationType: st?.stationType ?? '' };
      if (st?.name !== undefined) out.name = st.name;
      return out;
    }
    default: {
      const r = world.get(RESOURCES).byEid.get(eid);
      return {
        id,
        type: 'resource',
        x,
        z,
        resourceId: r?.resourceId ?? '',
        kind: r?.kind ?? '',
        depleted: r ? r.depletedUntilTick > world.tick : false,
      };
    }
  }
}

/**
 * `targetId` of a fighting entity (left out, not null, when it enters view without a fight), then this
 * tick's hits and death on it (combat's presentation, left out when there are none). Added in place,
 * not spread: every entry entering a view goes through here.
 */
function withFight(world: GameWorld, eid: number, out: WireEntity): WireEntity {
  const targetId = targetIdOf(world, eid);
  if (targetId !== null) out.targetId = targetId;
  const shown = shownOf(world, eid);
  if (shown !== undefined) {
    if (shown.hits.length > 0) out.hits = shown.hits;
    if (shown.death !== undefined) out.death = shown.death;
  }
  return out;
}

/**
 * The wire id of an entity, also when it despawned this tick (its wireIds entry is cleared then, but a
 * death is still shown in its last entry).
 */
function wireIdOf(world: GameWorld, eid: number): string {
  const id = world.wireIds[eid];
  if (id !== undefined) return id;
  for (const d of world.despawned) if (d.eid === eid) return d.wireId;
  return '';
}

// Imported bindings are getters under tsx's module transform: hot constants copied into locals once.
const MOVED = Dirty.position | Dirty.moving;
const OTHER_FIELDS = ~(Dirty.position | Dirty.moving | Dirty.visibility) >>> 0;
const PLAYER = EntityType.player;
const NPC = EntityType.npc;

/** id, type, tile, and the fields whose dirty bits are set this tick. */
export function changedEntity(world: GameWorld, eid: number): WireEntity {
  const { c } = world;
  const bits = c.Replicated.dirty[eid] as number;
  const kind = c.Kind.type[eid] as number;
  const out: WireEntity = {
    id: wireIdOf(world, eid),
    type: ENTITY_TYPE_NAMES[kind] ?? 'player',
    x: c.Position.x[eid] as number,
    z: c.Position.z[eid] as number,
  };
  if (bits & MOVED && (kind === PLAYER || kind === NPC)) out.moving = c.Movement.mode[eid] as number;
  // Movement is by far the most common change; anything else reads the full record.
  if ((bits & OTHER_FIELDS) === 0) return out;
  const full = fullEntity(world, eid);
  if (bits & Dirty.health) {
    out.health = full.health;
    out.maxHealth = full.maxHealth;
  }
  if (bits & Dirty.level) out.level = full.level;
  if (bits & Dirty.name) out.name = full.name;
  if (bits & Dirty.quantity) out.quantity = full.quantity;
  if (bits & Dirty.depleted) out.depleted = full.depleted;
  if (bits & Dirty.target) out.targetId = full.targetId ?? null;
  if (bits & Dirty.shown) {
    if (full.hits !== undefined) out.hits = full.hits;
    if (full.death !== undefined) out.death = full.death;
  }
  return out;
}

/** Whether an observer may see an entity: the ground-items feature decides for items, all else is public. */
export function visibleTo(world: GameWorld, eid: number, observerId: string): boolean {
  return world.c.Kind.type[eid] !== EntityType.item || groundItemVisibleTo(world, eid, observerId);
}
