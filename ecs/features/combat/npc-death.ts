import { stateChanged } from '../../core/players.ts';
import { npcKilled } from '../../core/reactions.ts';
import { despawnEntity, emit, type GameWorld, type PlayerData } from '../../core/world.ts';
import { spawnGroundItem } from '../ground-items/index.ts';
import { NPCS } from '../npcs/index.ts';
import { rollDrops } from './drops.ts';
import { forEachInFight, stopFight } from './fights.ts';
import { showDeath } from './shown.ts';
import { COMBAT } from './state.ts';

/**
 * An NPC dies: its viewers see it die (its last world:update entry; `entity:death` for those fighting it), its loot lies where it fell (seen only by the killer for
 * 60 s), the kill counts for the killer (npcKills, and the npcKilled reaction for quests), it leaves the
 * world, and one placed by content comes back at its spawn after `respawnTicks`.
 */
export function killNpc(world: GameWorld, eid: number, killer: PlayerData | undefined): void {
  const npcs = world.get(NPCS);
  const npc = npcs.byEid.get(eid);
  const wireId = world.wireIds[eid];
  if (!npc || wireId === undefined) return;
  const st = world.get(COMBAT);
  const info = world.content.npcs.get(npc.npcId);
  world.c.Health.current[eid] = 0;
  const data = { id: wireId, killerId: killer?.characterId ?? null, tick: world.tick };
  showDeath(world, eid, { killerId: data.killerId });
  forEachInFight(world, eid, data.killerId, (p) => emit(world, p.characterId, 'entityDeath', data));
  const x = world.c.Position.x[eid] as number;
  const z = world.c.Position.z[eid] as number;
  if (info?.drops) {
    for (const stack of rollDrops(world.rng, info.drops)) {
      if (world.content.items.has(stack.itemId))
        spawnGroundItem(world, stack, x, z, killer?.characterId ?? null);
    }
  }
  stopFight(world, eid);
  for (const [attacker, fight] of [...st.fights]) if (fight.targetEid === eid) stopFight(world, attacker);
  st.readyAt.delete(eid);
  st.lastHitBy.delete(eid);
  st.npcHomes.delete(eid);
  npcs.byEid.delete(eid);
  despawnEntity(world, eid);
  if (npc.spawnIndex >= 0)
    st.respawns.push({ tick: world.tick + Math.max(1, info?.respawnTicks ?? 1), spawnIndex: npc.spawnIndex });
  if (killer) {
    const kills = { ...(killer.state.slices?.npcKills ?? {}) };
    kills[npc.npcId] = (kills[npc.npcId] ?? 0) + 1;
    killer.state.slices = { ...killer.state.slices, npcKills: kills };
    stateChanged(world, killer);
    npcKilled(world, killer, npc.npcId);
  }
}
