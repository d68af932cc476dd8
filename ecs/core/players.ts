import type { CommandOf } from './commands.ts';
import { Dirty } from './components.ts';
import { defineFeature } from './feature.ts';
import { levelChanged, playerJoined, playerLeaving } from './reactions.ts';
import { combatLevel, levelForXp, MAX_XP, maxHealthFor, type Skill } from './skills.ts';
import { coreWire } from './wire.ts';
import {
  despawnEntity,
  emit,
  emitError,
  type GameWorld,
  markDirty,
  type PlayerData,
  snapshotCharacter,
  spawnEntity,
} from './world.ts';

/** Players entering and leaving the world. A player's entity id on the wire is its character id. */

/** The core of every world: entering and leaving. First in FEATURES. */
export const players = defineFeature({
  name: 'players',
  commands: { join: joinPlayer, leave: leavePlayer },
  // A dead player may always leave; a join of a character already in the world is refused on its own.
  deliveries: ['join', 'leave'],
  wire: coreWire,
});

export function joinPlayer(world: GameWorld, cmd: CommandOf<'join'>): void {
  const { state } = cmd;
  if (world.players.has(state.id)) {
    // Net closes the old session before a takeover join; a duplicate here is a bug upstream. Never two.
    emitError(world, state.id, 'BUSY', 'character is already in the world', cmd.origin);
    return;
  }
  const map = world.content.map;
  let { x, z } = state.position;
  x = Math.round(x);
  z = Math.round(z);
  if (!map.isWalkable(x, z)) ({ x, z } = world.content.spawn);
  const eid = spawnEntity(world, 'player', state.id, x, z);
  const maxHealth = maxHealthFor(state.skills);
  world.c.Health.max[eid] = maxHealth;
  // A character saved at 0 health left while its death waited: it dies in this tick's death phase.
  world.c.Health.current[eid] = Math.max(0, Math.min(maxHealth, Math.round(state.health)));
  const player: PlayerData = {
    eid,
    characterId: state.id,
    accountId: cmd.accountId,
    state: structuredClone(state),
    admin: false,
    syncDirty: true,
    joinedTick: world.tick,
  };
  player.state.position = { x, y: 0, z };
  world.players.set(state.id, player);
  world.playerByEid.set(eid, player);
  world.playersByName.set(state.name.toLowerCase(), player);
  playerJoined(world, player);
}

export function leavePlayer(world: GameWorld, cmd: CommandOf<'leave'>): void {
  const player = world.players.get(cmd.characterId);
  if (!player) return;
  playerLeaving(world, player, cmd.reason);
  world.persist.left.push(snapshotCharacter(world, player));
  world.persist.itemsChanged.delete(player.characterId);
  world.persist.dirty.delete(player.characterId);
  despawnEntity(world, player.eid);
  world.players.delete(player.characterId);
  world.playerByEid.delete(player.eid);
  world.playersByName.delete(player.state.name.toLowerCase());
}

export function playerCombatLevel(player: PlayerData): number {
  return combatLevel(player.state.skills);
}

/** Items or coins of this player changed: sync to the client and commit within the tick. */
export function itemsChanged(world: GameWorld, player: PlayerData): void {
  player.syncDirty = true;
  world.persist.itemsChanged.add(player.characterId);
}

/** Position, xp or health changed: saved at the next interval. */
export function stateChanged(world: GameWorld, player: PlayerData, sync = false): void {
  if (sync) player.syncDirty = true;
  world.persist.dirty.add(player.characterId);
}

/**
 * Give experience in a skill: whole points (the record keeps whole points; a manifest's 17.5 gives 18),
 * capped at MAX_XP; the level follows the experience table. Sends `skill:xp` (with the new level), syncs
 * the player, and follows a level change through (see setSkillXp). Returns the points given.
 */
export function grantXp(world: GameWorld, player: PlayerData, skill: Skill, amount: number): number {
  const sv = player.state.skills[skill];
  const gained = Math.min(Math.round(amount), MAX_XP - sv.xp);
  if (gained <= 0) return 0;
  setSkillXp(world, player, skill, sv.xp + gained, gained);
  return gained;
}

/**
 * The one place a skill's experience changes (gains, and an admin setting a level): the level from the
 * table, `skill:xp`, constitution's maximum health (health above a lowered maximum falls to it), the
 * combat level on the wire, and the `levelChanged` reaction (prayer points follow the prayer level).
 */
export function setSkillXp(world: GameWorld, player: PlayerData, skill: Skill, xp: number, gained = 0): void {
  const sv = player.state.skills[skill];
  const combatBefore = combatLevel(player.state.skills);
  const levelBefore = sv.level;
  sv.xp = Math.max(0, Math.min(MAX_XP, xp));
  sv.level = levelForXp(sv.xp);
  if (skill === 'constitution') {
    const h = world.c.Health;
    const max = maxHealthFor(player.state.skills);
    if (max !== h.max[player.eid]) {
      h.max[player.eid] = max;
      if ((h.current[player.eid] as number) > max) {
        h.current[player.eid] = max;
        player.state.health = max;
      }
      markDirty(world, player.eid, Dirty.health);
    }
  }
  if (combatLevel(player.state.skills) !== combatBefore) markDirty(world, player.eid, Dirty.level);
  emit(world, player.characterId, 'skillXp', { skill, xp: sv.xp, gained, level: sv.level });
  stateChanged(world, player, true);
  if (sv.level !== levelBefore) levelChanged(world, player, skill);
}
