import {
  type CharacterState,
  EQUIP_SLOTS,
  type EquipSlot,
  emptyInventory,
  INVENTORY_SLOTS,
  type ItemStack,
} from './character-state.ts';
import type { ItemInfo } from './content.ts';
import { maxHealthFor, newSkills } from './skills.ts';

/** The rules of a new character, kept here once: net/ creates characters with them, never restates them. */

/** A starter kit, as the content's character templates describe one. */
export interface StarterKit {
  readonly inventory: readonly { itemId: string; quantity: number }[];
  readonly equipment: Partial<Record<EquipSlot, string>>;
  readonly coins: number;
}

/** Inventory stacks of a kit: a non-stackable `quantity: 3` fills three slots. */
export function slotStacks(
  stacks: readonly { itemId: string; quantity: number }[],
  items: ReadonlyMap<string, ItemInfo>,
): ItemStack[] {
  const out: ItemStack[] = [];
  for (const s of stacks) {
    if (items.get(s.itemId)?.stackable) out.push({ itemId: s.itemId, quantity: s.quantity });
    else for (let i = 0; i < s.quantity; i++) out.push({ itemId: s.itemId, quantity: 1 });
  }
  return out;
}

/** A fresh character: constitution 10, every other skill 1, full health, the kit, at the spawn. */
export function newCharacterState(
  id: string,
  accountId: string,
  name: string,
  kit: StarterKit,
  content: {
    readonly spawn: { readonly x: number; readonly z: number };
    readonly items: ReadonlyMap<string, ItemInfo>;
  },
): CharacterState {
  const skills = newSkills();
  const inventory = emptyInventory();
  // Content refuses templates that need more than 28 slots; the slice only guards the invariant.
  slotStacks(kit.inventory, content.items)
    .slice(0, INVENTORY_SLOTS)
    .forEach((stack, i) => {
      inventory[i] = stack;
    });
  const equipment: CharacterState['equipment'] = {};
  for (const slot of EQUIP_SLOTS) {
    const itemId = kit.equipment[slot];
    if (itemId !== undefined) equipment[slot] = { itemId, quantity: 1 };
  }
  return {
    id,
    accountId,
    name,
    position: { x: content.spawn.x, y: 0, z: content.spawn.z },
    health: maxHealthFor(skills),
    coins: kit.coins,
    skills,
    inventory,
    equipment,
    bank: [],
  };
}
