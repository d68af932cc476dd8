import type { GameWorld, PlayerData } from '../../core/world.ts';
import { emit } from '../../core/world.ts';
import { areaAt, VOICE, voiceRoomName } from './state.ts';

/**
 * Voice rooms follow world areas: every player is in the room of the area it stands in. At the end of
 * each tick (after movement, teleports and respawns) a player whose area changed gets `voiceRoom` with
 * its new room, and fetches a new access token for it. Entering the world is not a change: the token
 * route names the room of the current area. Nothing is tracked while voice chat is not configured.
 */
export function voiceAreaSystem(world: GameWorld): void {
  const worldName = world.options.rules?.voiceWorld;
  if (worldName === undefined) return;
  const { areaOf } = world.get(VOICE);
  const { x, z } = world.c.Position;
  const areas = world.content.worldAreas;
  for (const player of world.players.values()) {
    const area = areaAt(areas, x[player.eid] as number, z[player.eid] as number);
    const before = areaOf.get(player.characterId);
    if (before === area) continue;
    areaOf.set(player.characterId, area);
    if (before !== undefined)
      emit(world, player.characterId, 'voiceRoom', { room: voiceRoomName(worldName, area) });
  }
}

export function onLeave(world: GameWorld, player: PlayerData): void {
  world.get(VOICE).areaOf.delete(player.characterId);
}
