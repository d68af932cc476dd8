import type { CommandOf, PlayerAction } from '../../core/commands.ts';
import type { ItemLock } from '../../core/feature.ts';
import type { Holdings } from '../../core/persist-intents.ts';
import { interfaceOpened } from '../../core/reactions.ts';
import { emit, emitError, type GameWorld, type PlayerData, ticksFor } from '../../core/world.ts';
import {
  addItem,
  COINS,
  holdingsOf,
  itemsLocked,
  MAX_STACK,
  nextTxId,
  stackAt,
  submitTx,
  takeItems,
} from '../inventory/index.ts';
import { NPCS } from '../npcs/index.ts';
import type { StoreInfo } from './content.ts';
import type { ShopItemView } from './events.ts';
import { SHOP_RANGE, SHOPS, type StockEntry } from './state.ts';

/**
 * Shops (stores.json), kept by NPCs whose spawn names the store. `player:action shop` (reach 1) opens
 * one; buying and selling are each ONE item transaction (inventory's submitTx, kinds shop_buy and
 * shop_sell): the holdings change only when the database committed it, the player is BUSY meanwhile,
 * and the transaction id makes a retry a no-op. Stock is per world: bought units leave the shelf when
 * the purchase is asked for and come back if it fails; limited items restock one unit every
 * `restockTime` seconds toward their manifest quantity (counted in ticks). Everyone browsing a shop gets
 * `shopUpdate` when its stock changes. While a shop is open the player's items are locked for trades
 * (INTERFACE_BLOCKED); the shop closes when the player walks farther than SHOP_RANGE from the keeper,
 * opens another interface, starts another action, dies or leaves.
 */

function storeOf(world: GameWorld, shopId: string): StoreInfo | undefined {
  return world.content.stores?.get(shopId);
}

/** The live stock of a shop, created from the manifest on first use. */
export function stockOf(world: GameWorld, store: StoreInfo): Map<string, StockEntry> {
  const state = world.get(SHOPS);
  let stock = state.stock.get(store.id);
  if (!stock) {
    stock = new Map(store.items.map((i) => [i.itemId, { stock: i.stockQuantity, nextRestockTick: null }]));
    state.stock.set(store.id, stock);
  }
  return stock;
}

function view(world: GameWorld, store: StoreInfo): ShopItemView[] {
  const stock = stockOf(world, store);
  return store.items.map((i) => ({
    itemId: i.itemId,
    price: i.price,
    stock: stock.get(i.itemId)?.stock ?? -1,
  }));
}

/** shopUpdate to everyone with this shop open. */
function broadcast(world: GameWorld, store: StoreInfo): void {
  const state = world.get(SHOPS);
  let items: ShopItemView[] | null = null;
  for (const [id, open] of state.open) {
    if (open.shopId !== store.id) continue;
    items ??= view(world, store);
    emit(world, id, 'shopUpdate', { shopId: store.id, items: items.map((i) => ({ ...i })) });
  }
}

/** Stock moved away from the manifest quantity: start the restock clock if it is not running. */
function touched(world: GameWorld, store: StoreInfo, itemId: string, entry: StockEntry): void {
  const def = store.items.find((i) => i.itemId === itemId);
  if (!def || def.stockQuantity < 0) return;
  if (entry.stock === def.stockQuantity) entry.nextRestockTick = null;
  else if (entry.nextRestockTick === null && def.restockTime > 0)
    entry.nextRestockTick = world.tick + ticksFor(world, def.restockTime);
}

/** The item locks other than an open shop's (a trade, a transaction in flight): true = refused. */
function lockedByOthers(world: GameWorld, player: PlayerData, origin: string | undefined): boolean {
  const state = world.get(SHOPS);
  state.selfCheck = true;
  try {
    return itemsLocked(world, player, origin);
  } finally {
    state.selfCheck = false;
  }
}

/** `player:action shop` on a keeper (walked to first, reach 1), or a dialogue's openStore effect. */
export function openShop(world: GameWorld, player: PlayerData, targetId: string, origin?: string): void {
  const target = world.eidByWireId.get(targetId);
  if (target === undefined) {
    emitError(world, player.characterId, 'NOT_FOUND', `no entity ${targetId}`, origin);
    return;
  }
  const npc = world.get(NPCS).byEid.get(target);
  const store = npc?.storeId === undefined ? undefined : storeOf(world, npc.storeId);
  if (!npc || !store) {
    emitError(world, player.characterId, 'INVALID_TARGET', `${targetId} keeps no shop`, origin);
    return;
  }
  if (distance(world, player.eid, target) > SHOP_RANGE) {
    emitError(world, player.characterId, 'TOO_FAR', 'stand next to the shopkeeper', origin);
    return;
  }
  if (lockedByOthers(world, player, origin)) return;
  closeShop(world, player, false);
  interfaceOpened(world, player, 'shop');
  world.get(SHOPS).open.set(player.characterId, { shopId: store.id, keeperId: targetId });
  emit(world, player.characterId, 'shopOpen', {
    shopId: store.id,
    name: store.name,
    items: view(world, store),
    buyback: store.buyback,
    sellRate: store.buybackRate,
  });
}

/** Close the player's shop, if one is open (`shopClosed` unless it is leaving). */
export function closeShop(world: GameWorld, player: PlayerData, tell = true): void {
  const state = world.get(SHOPS);
  const open = state.open.get(player.characterId);
  if (!open) return;
  state.open.delete(player.characterId);
  if (tell) emit(world, player.characterId, 'shopClosed', { shopId: open.shopId });
}

function distance(world: GameWorld, a: number, b: number): number {
  const p = world.c.Position;
  return Math.max(
    Math.abs((p.x[a] as number) - (p.x[b] as number)),
    Math.abs((p.z[a] as number) - (p.z[b] as number)),
  );
}

/** The open shop a command names: NOT_FOUND when that shop is not the one open. */
function openStore(world: GameWorld, player: PlayerData, shopId: string, origin?: string): StoreInfo | null {
  const open = world.get(SHOPS).open.get(player.characterId);
  const store = open && open.shopId === shopId ? storeOf(world, shopId) : undefined;
  if (!store) {
    emitError(world, player.characterId, 'NOT_FOUND', `shop ${shopId} is not open`, origin);
    return null;
  }
  return store;
}

function submit(
  world: GameWorld,
  player: PlayerData,
  kind: 'shop_buy' | 'shop_sell',
  after: Holdings,
  onResult: (world: GameWorld, ok: boolean) => void,
  origin: string | undefined,
): void {
  const id = player.characterId;
  submitTx(world, {
    request: {
      id: nextTxId(world),
      kind,
      requesterId: id,
      changes: [{ characterId: id, before: holdingsOf(player), after }],
      // Coins leave for items (or items for coins) at the shop's price: not conserved by design.
      conserve: false,
    },
    onResult: (w, ok, reason) => {
      onResult(w, ok);
      if (!ok && w.players.has(id))
        emitError(w, id, 'BUSY', `the shop could not do that (${reason ?? 'failed'}); try again`, origin);
    },
  });
}

export function handleShopBuy(world: GameWorld, cmd: CommandOf<'shopBuy'>): void {
  const player = world.players.get(cmd.characterId);
  if (!player || lockedByOthers(world, player, cmd.origin)) return;
  const store = openStore(world, player, cmd.shopId, cmd.origin);
  if (!store) return;
  const item = store.items.find((i) => i.itemId === cmd.itemId);
  const entry = stockOf(world, store).get(cmd.itemId);
  if (!item || !entry) {
    emitError(world, player.characterId, 'NOT_FOUND', `${cmd.itemId} is not sold here`, cmd.origin);
    return;
  }
  const quantity = cmd.quantity;
  if (!Number.isInteger(quantity) || quantity <= 0) {
    emitError(world, player.characterId, 'INVALID_QUANTITY', 'buy at least one', cmd.origin);
    return;
  }
  if (entry.stock !== -1 && entry.stock < quantity) {
    emitError(world, player.characterId, 'OUT_OF_STOCK', `only ${entry.stock} left`, cmd.origin);
    return;
  }
  const cost = item.price * quantity;
  if (player.state.coins < cost) {
    emitError(world, player.characterId, 'INSUFFICIENT_FUNDS', `that costs ${cost} coins`, cmd.origin);
    return;
  }
  const after = holdingsOf(player);
  after.coins -= cost;
  if (!addItem(world.content, after, item.itemId, quantity)) {
    emitError(world, player.characterId, 'INVENTORY_FULL', 'your inventory cannot hold that', cmd.origin);
    return;
  }
  if (entry.stock !== -1) {
    entry.stock -= quantity;
    touched(world, store, item.itemId, entry);
  }
  submit(
    world,
    player,
    'shop_buy',
    after,
    (w, ok) => {
      if (!ok && entry.stock !== -1) {
        entry.stock += quantity;
        touched(w, store, item.itemId, entry);
      }
      if (ok && entry.stock !== -1) broadcast(w, store);
    },
    cmd.origin,
  );
}

export function handleShopSell(world: GameWorld, cmd: CommandOf<'shopSell'>): void {
  const player = world.players.get(cmd.characterId);
  if (!player || lockedByOthers(world, player, cmd.origin)) return;
  const store = openStore(world, player, cmd.shopId, cmd.origin);
  if (!store) return;
  const stack = stackAt(player.state.inventory, cmd.slot);
  if (!stack) {
    emitError(world, player.characterId, 'INVALID_SLOT', 'that slot is empty', cmd.origin);
    return;
  }
  const info = world.content.items.get(stack.itemId);
  if (!store.buyback) {
    emitError(world, player.characterId, 'UNTRADEABLE', `${store.name} buys nothing`, cmd.origin);
    return;
  }
  if (!info?.tradeable || stack.itemId === COINS) {
    emitError(world, player.characterId, 'UNTRADEABLE', `${stack.itemId} cannot be sold`, cmd.origin);
    return;
  }
  const after = holdingsOf(player);
  const { itemId } = stack;
  // A non-stackable sale of n takes this slot first, then other slots holding the same item.
  const quantity = takeItems(world.content, after.inventory, cmd.slot, cmd.quantity);
  if (quantity === null) {
    emitError(world, player.characterId, 'INVALID_QUANTITY', 'you do not hold that many', cmd.origin);
    return;
  }
  const paid = Math.floor(info.value * store.buybackRate) * quantity;
  if (after.coins + paid > MAX_STACK) {
    emitError(world, player.characterId, 'INVENTORY_FULL', 'your coin pouch is full', cmd.origin);
    return;
  }
  after.coins += paid;
  submit(
    world,
    player,
    'shop_sell',
    after,
    (w, ok) => {
      // A limited item the shop sells goes back on its shelf (and decays toward the manifest quantity).
      const entry = stockOf(w, store).get(itemId);
      if (!ok || !entry || entry.stock === -1) return;
      entry.stock = Math.min(MAX_STACK, entry.stock + quantity);
      touched(w, store, itemId, entry);
      broadcast(w, store);
    },
    cmd.origin,
  );
}

export function handleShopClose(world: GameWorld, cmd: CommandOf<'shopClose'>): void {
  const player = world.players.get(cmd.characterId);
  if (!player) return;
  const open = world.get(SHOPS).open.get(player.characterId);
  if (!open || open.shopId !== cmd.shopId) {
    emitError(world, player.characterId, 'NOT_FOUND', `shop ${cmd.shopId} is not open`, cmd.origin);
    return;
  }
  closeShop(world, player);
}

/** Set every limited item of a shop back to its manifest quantity (admin `/stock`). False: no such shop. */
export function restockShop(world: GameWorld, shopId: string): boolean {
  const store = storeOf(world, shopId);
  if (!store) return false;
  const stock = stockOf(world, store);
  for (const def of store.items) {
    const entry = stock.get(def.itemId);
    if (!entry) continue;
    entry.stock = def.stockQuantity;
    entry.nextRestockTick = null;
  }
  broadcast(world, store);
  return true;
}

/**
 * System: one unit per `restockTime` toward the manifest quantity (up when bought out, down when
 * players sold more), and shops whose player walked out of range (or whose keeper is gone) close.
 */
export function shopsSystem(world: GameWorld): void {
  const state = world.get(SHOPS);
  for (const [shopId, stock] of state.stock) {
    const store = storeOf(world, shopId);
    if (!store) continue;
    let changed = false;
    for (const def of store.items) {
      const entry = stock.get(def.itemId);
      if (!entry || entry.nextRestockTick === null || world.tick < entry.nextRestockTick) continue;
      entry.stock += entry.stock < def.stockQuantity ? 1 : -1;
      entry.nextRestockTick = null;
      touched(world, store, def.itemId, entry);
      changed = true;
    }
    if (changed) broadcast(world, store);
  }
  if (state.open.size === 0) return;
  for (const [id, open] of [...state.open]) {
    const player = world.players.get(id);
    if (!player) {
      state.open.delete(id);
      continue;
    }
    const keeper = world.eidByWireId.get(open.keeperId);
    if (keeper === undefined || distance(world, player.eid, keeper) > SHOP_RANGE) closeShop(world, player);
  }
}

/** itemsLocked reaction: an open shop holds the items against trades and other changes. */
export function shopLock(world: GameWorld, player: PlayerData): ItemLock | null {
  const state = world.get(SHOPS);
  if (state.selfCheck || !state.open.has(player.characterId)) return null;
  return { code: 'INTERFACE_BLOCKED', message: 'close the shop first' };
}

/** Another interface opened: the shop closes. */
export function onInterfaceOpened(world: GameWorld, player: PlayerData, kind: string): void {
  if (kind !== 'shop') closeShop(world, player);
}

/** Another action started (attack, bank, gather...): the shop closes. */
export function onActionStarted(world: GameWorld, player: PlayerData, verb: PlayerAction): void {
  if (verb !== 'shop') closeShop(world, player);
}

export function onLeave(world: GameWorld, player: PlayerData): void {
  closeShop(world, player, false);
}

export function onDeath(world: GameWorld, player: PlayerData): void {
  closeShop(world, player);
}
