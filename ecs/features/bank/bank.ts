import type { CommandOf } from '../../core/commands.ts';
import type { Holdings, ItemTxRequest } from '../../core/persist-intents.ts';
import { emit, emitError, type GameWorld, type PlayerData } from '../../core/world.ts';
import {
  addItem,
  addToBank,
  freeSlots,
  holdingsOf,
  isStackable,
  itemsLocked,
  nextTxId,
  stackAt,
  submitTx,
  takeItems,
} from '../inventory/index.ts';
import { NPCS } from '../npcs/index.ts';
import { STATIONS, stationOf } from '../stations/index.ts';

/**
 * The bank: deposit and withdraw within BANK_RANGE of a bank (an NPC with service `bank` or a station of
 * type `bank`). Each is one ItemTxRequest committed by the database before anything is shown: the player
 * is locked (BUSY) until its `txResult`, then the bank and inventory are shown (bankUpdate + sync).
 */

export const BANK_RANGE = 2;

export function nearBank(world: GameWorld, player: PlayerData): boolean {
  const p = world.c.Position;
  const x = p.x[player.eid] as number;
  const z = p.z[player.eid] as number;
  const near = (bx: number, bz: number) => Math.max(Math.abs(bx - x), Math.abs(bz - z)) <= BANK_RANGE;
  for (const s of world.get(STATIONS).byEid.values()) {
    if (s.stationType === 'bank' && near(p.x[s.eid] as number, p.z[s.eid] as number)) return true;
  }
  for (const npc of world.get(NPCS).byEid.values()) {
    if (npc.service === 'bank' && near(p.x[npc.eid] as number, p.z[npc.eid] as number)) return true;
  }
  return false;
}

/** Whether an entity is a bank: a bank station or an NPC with service `bank`. */
function isBank(world: GameWorld, eid: number): boolean {
  return stationOf(world, eid)?.stationType === 'bank' || world.get(NPCS).byEid.get(eid)?.service === 'bank';
}

/** `player:action bank` on a bank booth or banker (walked to first): its contents as bankUpdate. */
export function openBank(world: GameWorld, player: PlayerData, targetId: string, origin?: string): void {
  const target = world.eidByWireId.get(targetId);
  if (target === undefined) {
    emitError(world, player.characterId, 'NOT_FOUND', `no entity ${targetId}`, origin);
    return;
  }
  if (!isBank(world, target)) {
    emitError(world, player.characterId, 'INVALID_TARGET', `${targetId} is not a bank`, origin);
    return;
  }
  if (!nearBank(world, player)) {
    emitError(world, player.characterId, 'TOO_FAR', 'no bank within reach', origin);
    return;
  }
  emit(world, player.characterId, 'bankUpdate', { items: structuredClone(player.state.bank) });
}

function submit(
  world: GameWorld,
  player: PlayerData,
  kind: ItemTxRequest['kind'],
  after: Holdings,
  origin?: string,
): void {
  const id = player.characterId;
  submitTx(world, {
    request: {
      id: nextTxId(world),
      kind,
      requesterId: id,
      changes: [{ characterId: id, before: holdingsOf(player), after }],
      conserve: true,
    },
    onResult: (w, ok, reason) => {
      const p = w.players.get(id);
      if (!p) return;
      if (ok) emit(w, id, 'bankUpdate', { items: structuredClone(p.state.bank) });
      else emitError(w, id, 'BUSY', `the bank could not do that (${reason ?? 'failed'}); try again`, origin);
    },
  });
}

export function handleBankDeposit(world: GameWorld, cmd: CommandOf<'bankDeposit'>): void {
  const player = world.players.get(cmd.characterId);
  if (!player || itemsLocked(world, player, cmd.origin)) return;
  if (!nearBank(world, player)) {
    emitError(world, player.characterId, 'TOO_FAR', 'no bank within reach', cmd.origin);
    return;
  }
  const stack = stackAt(player.state.inventory, cmd.slot);
  if (!stack) {
    emitError(world, player.characterId, 'INVALID_SLOT', 'that slot is empty', cmd.origin);
    return;
  }
  const after = holdingsOf(player);
  const { itemId } = stack;
  // A non-stackable deposit of n takes this slot first, then other slots holding the same item.
  const quantity = takeItems(world.content, after.inventory, cmd.slot, cmd.quantity);
  if (quantity === null) {
    emitError(world, player.characterId, 'INVALID_QUANTITY', 'you do not hold that many', cmd.origin);
    return;
  }
  if (!addToBank(after.bank, itemId, quantity)) {
    emitError(world, player.characterId, 'INVALID_QUANTITY', 'the bank cannot hold more of that', cmd.origin);
    return;
  }
  submit(world, player, 'bank_deposit', after, cmd.origin);
}

export function handleBankWithdraw(world: GameWorld, cmd: CommandOf<'bankWithdraw'>): void {
  const player = world.players.get(cmd.characterId);
  if (!player || itemsLocked(world, player, cmd.origin)) return;
  if (!nearBank(world, player)) {
    emitError(world, player.characterId, 'TOO_FAR', 'no bank within reach', cmd.origin);
    return;
  }
  const after = holdingsOf(player);
  const index = after.bank.findIndex((s) => s.itemId === cmd.itemId);
  const entry = after.bank[index];
  if (!entry) {
    emitError(world, player.characterId, 'NOT_FOUND', 'that item is not in your bank', cmd.origin);
    return;
  }
  let quantity = cmd.quantity ?? entry.quantity;
  if (!Number.isInteger(quantity) || quantity <= 0 || quantity > entry.quantity) {
    emitError(world, player.characterId, 'INVALID_QUANTITY', 'the bank does not hold that many', cmd.origin);
    return;
  }
  const inv = after.inventory;
  if (isStackable(world.content, entry.itemId)) {
    if (!addItem(world.content, after, entry.itemId, quantity)) {
      emitError(world, player.characterId, 'INVENTORY_FULL', 'your inventory cannot hold that', cmd.origin);
      return;
    }
  } else {
    // As many as fit, one per free slot.
    quantity = Math.min(quantity, freeSlots(inv));
    if (quantity === 0) {
      emitError(world, player.characterId, 'INVENTORY_FULL', 'your inventory is full', cmd.origin);
      return;
    }
    for (let n = 0; n < quantity; n++) inv[inv.indexOf(null)] = { itemId: entry.itemId, quantity: 1 };
  }
  entry.quantity -= quantity;
  if (entry.quantity === 0) after.bank.splice(index, 1);
  submit(world, player, 'bank_withdraw', after, cmd.origin);
}
