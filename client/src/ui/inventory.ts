import { HAND_RECIPES, ITEMS } from 'virtual:content';
import type { App } from '../app.ts';
import { itemExamine, itemName } from '../content.ts';
import type { ItemStack } from '../wire.ts';
import { $, el, type MenuItem } from './dom.ts';

/**
 * The 28 inventory slots. A click opens the item's menu: what it is for (Eat, Wield/Wear, Bury), Use
 * (then click another item, or something in the world, to use it on), Make (the recipes it goes into
 * that need no station), Examine, Drop, and while a window is open Deposit, Offer or Sell. With an item
 * picked by Use, a click on another item uses the first on it.
 */

const WIELDED = new Set(['weapon', '2h', 'shield', 'arrows']);

export function renderInventory(app: App): void {
  const { state } = app;
  const me = state.me;
  if (!me) return;
  const grid = el('div', { class: 'grid' });
  me.inventory.forEach((stack, slot) => {
    const using = state.using?.slot === slot;
    const cell = el('div', {
      class: `slot${stack ? '' : ' empty'}${using ? ' using' : ''}`,
      'data-slot': String(slot),
    });
    if (stack) {
      cell.dataset['item'] = stack.itemId;
      cell.title = itemName(stack.itemId);
      cell.append(itemName(stack.itemId));
      if (stack.quantity > 1) cell.append(el('span', { class: 'q' }, String(stack.quantity)));
    }
    cell.addEventListener('click', (ev) => {
      ev.stopPropagation();
      const held = state.using;
      if (held) {
        state.using = null;
        renderInventory(app);
        if (stack && held.slot !== slot) app.send('inventory:use', { slot: held.slot, targetSlot: slot });
        return;
      }
      if (stack) app.ui.menu(ev.clientX, ev.clientY, itemName(stack.itemId), slotActions(app, slot, stack));
    });
    grid.append(cell);
  });
  const using = state.using;
  const parts: Node[] = [grid];
  if (using) {
    parts.unshift(
      el(
        'div',
        { class: 'using-line', 'data-testid': 'using' },
        `Use ${itemName(using.itemId)} with… click an item, or something in the world (Esc cancels).`,
      ),
    );
  }
  $('panel-inventory').replaceChildren(...parts);
}

/** The recipes made without a station that use this item and whose other items are held. */
function handRecipes(app: App, itemId: string) {
  const held = new Set((app.state.me?.inventory ?? []).flatMap((s) => (s ? [s.itemId] : [])));
  return HAND_RECIPES.filter((r) => r.uses.includes(itemId) && r.uses.every((u) => held.has(u)));
}

export function slotActions(app: App, slot: number, stack: ItemStack): MenuItem[] {
  const { state } = app;
  const info = ITEMS[stack.itemId];
  const name = itemName(stack.itemId);
  const items: MenuItem[] = [];
  const shop = state.shop;
  if (shop?.buyback) {
    items.push({
      label: 'Sell 1',
      run: () => app.send('shop:sell', { shopId: shop.shopId, slot, quantity: 1 }),
    });
    if (stack.quantity > 1)
      items.push({ label: 'Sell all', run: () => app.send('shop:sell', { shopId: shop.shopId, slot }) });
  }
  if (state.bank !== null) {
    items.push({ label: 'Deposit', run: () => app.send('bank:deposit', { slot }) });
  }
  const trade = state.trade;
  if (trade?.kind === 'offer') {
    items.push({
      label: 'Offer',
      run: () => app.send('tradeAddItem', { tradeId: trade.tradeId, inventorySlot: slot }),
    });
  }
  const use = () => app.send('inventory:use', { slot });
  if ((info?.heal ?? 0) > 0) items.push({ label: `Eat ${name}`, run: use });
  if (info?.equip) items.push({ label: `${WIELDED.has(info.equip) ? 'Wield' : 'Wear'} ${name}`, run: use });
  if (info?.bury) items.push({ label: `Bury ${name}`, run: use });
  items.push({
    label: `Use ${name}`,
    run: () => {
      state.using = { slot, itemId: stack.itemId };
      renderInventory(app);
    },
  });
  const recipes = handRecipes(app, stack.itemId);
  if (recipes.length > 0) {
    items.push({
      label: `Make with ${name}…`,
      run: () => {
        state.station = {
          targetId: '',
          stationType: 'hand',
          recipes: recipes.map((r) => ({ recipeId: r.recipeId, kind: r.kind, level: r.level })),
        };
        app.refresh('station');
      },
    });
  }
  items.push({ label: `Examine ${name}`, run: () => app.ui.chatLine(itemExamine(stack.itemId), 'system') });
  items.push({
    label: `Drop ${name}`,
    run: () => app.send('inventory:drop', { slot, quantity: stack.quantity }),
  });
  return items;
}
