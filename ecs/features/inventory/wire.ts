import { z } from 'zod';
import { id, quantity, simEquipSlot, slot, WIRE_EQUIP_SLOTS } from '../../core/faces/primitives.ts';
import { clientEvent, command, defineWire } from '../../core/faces/wire.ts';

/** The inventory's wire face: using, dropping and moving items, and taking worn items off. */
export const inventoryWire = defineWire({
  client: {
    'inventory:use': clientEvent({
      schema: z.object({ slot, targetSlot: slot.optional(), targetId: id.optional() }),
      doc: 'Use the item in a slot: eat food, equip a wearable; optionally on another slot (`targetSlot`) or a world entity (`targetId`).',
      translate: (base, p) =>
        command({
          ...base,
          type: 'inventoryUse',
          slot: p.slot,
          targetSlot: p.targetSlot,
          targetId: p.targetId,
        }),
    }),
    /** Project extension: drop (part of) a stack to the ground. */
    'inventory:drop': clientEvent({
      schema: z.object({ slot, quantity: quantity.optional() }),
      doc: 'Drop (part of) a stack to the ground at your tile. Only you see it for a while, then everyone.',
      translate: (base, p) => command({ ...base, type: 'inventoryDrop', slot: p.slot, quantity: p.quantity }),
    }),
    /** Project extension: move an item between two inventory slots (swap). */
    'inventory:move': clientEvent({
      schema: z.object({ from: slot, to: slot }),
      doc: 'Swap the contents of two inventory slots.',
      translate: (base, p) => command({ ...base, type: 'inventoryMove', from: p.from, to: p.to }),
    }),
    /** Project extension: take off a worn item into the inventory. */
    'equipment:unequip': clientEvent({
      schema: z.object({ slot: z.enum(WIRE_EQUIP_SLOTS) }),
      doc: 'Take a worn item off into the inventory: `slot` is one of the slots of `player:sync.equipment` (the ammunition slot is `ammo`; any other name is `BAD_MESSAGE`). `INVALID_SLOT` when nothing is worn there, `INVENTORY_FULL` when there is no room.',
      translate: (base, p) => command({ ...base, type: 'unequip', slot: simEquipSlot(p.slot) }),
    }),
  },
});
