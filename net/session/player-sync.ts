import { EQUIP_SLOTS, INVENTORY_SLOTS, type ItemStack } from '../../ecs/core/character-state.ts';
import { combatLevel as combatLevelOf, SKILLS } from '../../ecs/core/skills.ts';
import type { GameWorld, PlayerData } from '../../ecs/core/world.ts';
import { runEnergyPercent } from '../../ecs/features/movement/index.ts';
import type { ServerPayload } from '../protocol/server-events.ts';
import { wireEquipSlot } from '../protocol/shared.ts';

/** `player:sync`: the player's full state, every skill, 28 slots, every equipment slot (by wire name). */
export function buildPlayerSync(world: GameWorld, player: PlayerData): ServerPayload<'player:sync'> {
  const { c } = world;
  const { eid, state } = player;
  const stack = (s: ItemStack | null | undefined) => (s ? { itemId: s.itemId, quantity: s.quantity } : null);
  const skills = {} as ServerPayload<'player:sync'>['skills'];
  for (const skill of SKILLS) {
    const v = state.skills[skill];
    skills[skill] = { level: v.level, xp: v.xp };
  }
  const equipment = {} as ServerPayload<'player:sync'>['equipment'];
  for (const slot of EQUIP_SLOTS) equipment[wireEquipSlot(slot)] = stack(state.equipment[slot]);
  const inventory = Array.from({ length: INVENTORY_SLOTS }, (_, i) => stack(state.inventory[i]));
  const level = combatLevelOf(state.skills);
  return {
    id: player.characterId,
    name: state.name,
    position: {
      x: c.Position.x[eid] as number,
      y: c.Position.y[eid] as number,
      z: c.Position.z[eid] as number,
    },
    health: c.Health.current[eid] as number,
    maxHealth: c.Health.max[eid] as number,
    combatLevel: level,
    coins: state.coins,
    questPoints: state.slices?.quests?.points ?? 0,
    skills,
    inventory,
    equipment,
    voice: { enabled: world.options.rules?.voiceWorld !== undefined },
    runEnergy: runEnergyPercent(world, player),
  };
}
