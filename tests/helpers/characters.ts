import { randomUUID } from 'node:crypto';
import { type CharacterState, emptyInventory, type ItemStack } from '../../ecs/core/character-state.ts';
import { newSkills } from '../../ecs/core/skills.ts';
import type { Holdings } from '../../persistence/port.ts';

/** A fresh character as the simulation would create it, with optional holdings. */
export function makeCharacter(
  accountId: string,
  name: string,
  over: Partial<Pick<CharacterState, 'coins' | 'inventory' | 'bank' | 'equipment' | 'position'>> = {},
): CharacterState {
  return {
    id: randomUUID(),
    accountId,
    name,
    position: over.position ?? { x: 0, y: 10, z: 0 },
    health: 100,
    coins: over.coins ?? 0,
    skills: newSkills(),
    inventory: over.inventory ?? emptyInventory(),
    equipment: over.equipment ?? {},
    bank: over.bank ?? [],
  };
}

export function inventoryOf(stacks: Record<number, ItemStack>): (ItemStack | null)[] {
  const inv = emptyInventory();
  for (const [slot, s] of Object.entries(stacks)) inv[Number(slot)] = s;
  return inv;
}

export function holdingsOf(s: CharacterState, withEquipment = false): Holdings {
  const h: Holdings = structuredClone({ inventory: s.inventory, coins: s.coins, bank: s.bank });
  if (withEquipment) h.equipment = structuredClone(s.equipment);
  return h;
}
