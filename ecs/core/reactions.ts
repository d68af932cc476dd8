import type { Command, PlayerAction } from './commands.ts';
import type { ItemLock, LeaveReason, Refusal } from './feature.ts';
import type { Skill } from './skills.ts';
import type { GameWorld, PlayerData } from './world.ts';

/**
 * How a feature tells the others that something happened to a player, without knowing who listens:
 * each runs the reactions the features registered (see Reactions in feature.ts), in plan order.
 */

export function playerJoined(world: GameWorld, player: PlayerData): void {
  for (const react of world.plan.join) react(world, player);
}

/** The first refusal a feature gives this command of the player, or null: it may be applied. */
export function commandRefusal(world: GameWorld, player: PlayerData, cmd: Command): Refusal | null {
  for (const refuse of world.plan.refuse) {
    const refusal = refuse(world, player, cmd);
    if (refusal) return refusal;
  }
  return null;
}

export function playerLeaving(world: GameWorld, player: PlayerData, reason: LeaveReason): void {
  for (const react of world.plan.leave) react(world, player, reason);
}

export function playerMoving(world: GameWorld, player: PlayerData): void {
  for (const react of world.plan.move) react(world, player);
}

export function playerDying(world: GameWorld, player: PlayerData): void {
  for (const react of world.plan.death) react(world, player);
}

export function groundItemExpired(world: GameWorld, eid: number): void {
  for (const react of world.plan.groundItemExpired) react(world, eid);
}

/**
 * Whether a player sees an entity: within view distance (Chebyshev; the distance at which replication
 * lets an entity enter view) and hidden by no feature. Commands that name an entity answer NOT_FOUND for
 * one the player does not see, exactly as for one that does not exist, so they never tell where it is.
 */
export function inViewOf(world: GameWorld, viewer: PlayerData, eid: number): boolean {
  if (world.wireIds[eid] === undefined) return false;
  const p = world.c.Position;
  const d = Math.max(
    Math.abs((p.x[viewer.eid] as number) - (p.x[eid] as number)),
    Math.abs((p.z[viewer.eid] as number) - (p.z[eid] as number)),
  );
  if (d > world.viewDistance) return false;
  for (const hides of world.plan.hides) if (hides(world, eid, viewer)) return false;
  return true;
}

/** The first lock a feature holds on the player's items and coins, or null. */
export function itemLockOf(world: GameWorld, player: PlayerData): ItemLock | null {
  for (const check of world.plan.itemsLocked) {
    const lock = check(world, player);
    if (lock) return lock;
  }
  return null;
}

export function playerHit(world: GameWorld, player: PlayerData, sourceId: string | undefined): void {
  for (const react of world.plan.hit) react(world, player, sourceId);
}

export function actionStarted(world: GameWorld, player: PlayerData, verb: PlayerAction): void {
  for (const react of world.plan.actionStarted) react(world, player, verb);
}

export function npcKilled(world: GameWorld, player: PlayerData, npcId: string): void {
  for (const react of world.plan.npcKilled) react(world, player, npcId);
}

export function itemGathered(world: GameWorld, player: PlayerData, itemId: string, quantity: number): void {
  for (const react of world.plan.itemGathered) react(world, player, itemId, quantity);
}

export function interfaceOpened(world: GameWorld, player: PlayerData, kind: string): void {
  for (const react of world.plan.interfaceOpened) react(world, player, kind);
}

export function itemMade(world: GameWorld, player: PlayerData, itemId: string, quantity: number): void {
  for (const react of world.plan.itemMade) react(world, player, itemId, quantity);
}

export function levelChanged(world: GameWorld, player: PlayerData, skill: Skill): void {
  for (const react of world.plan.levelChanged) react(world, player, skill);
}

export function playerAttacked(world: GameWorld, player: PlayerData): void {
  for (const react of world.plan.attacked) react(world, player);
}
