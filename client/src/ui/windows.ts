import { STATIONS } from 'virtual:content';
import type { App } from '../app.ts';
import { itemExamine, itemName, levelOf, npcName } from '../content.ts';
import { prettyId } from '../game.ts';
import { $, button, el, syncDock } from './dom.ts';

/** The bank, shop, station (recipes) and dialogue windows, in the dock beside the stage. */

function show(id: string, open: boolean, ...parts: Node[]): void {
  const win = $(id);
  if (!open) {
    win.classList.add('hidden');
    win.replaceChildren();
  } else {
    win.replaceChildren(...parts);
    win.classList.remove('hidden');
  }
  syncDock();
}

export function renderBank(app: App): void {
  const bank = app.state.bank;
  if (bank === null) {
    show('bank', false);
    return;
  }
  const grid = el('div', { class: 'grid' });
  for (const stack of bank) {
    const cell = el('div', { class: 'slot', 'data-item': stack.itemId }, itemName(stack.itemId));
    cell.append(el('span', { class: 'q' }, String(stack.quantity)));
    cell.title = 'Withdraw';
    cell.addEventListener('click', (ev) => {
      ev.stopPropagation();
      app.ui.menu(ev.clientX, ev.clientY, itemName(stack.itemId), [
        { label: 'Withdraw 1', run: () => app.send('bank:withdraw', { itemId: stack.itemId, quantity: 1 }) },
        { label: 'Withdraw all', run: () => app.send('bank:withdraw', { itemId: stack.itemId }) },
        {
          label: `Examine ${itemName(stack.itemId)}`,
          run: () => app.ui.chatLine(itemExamine(stack.itemId), 'system'),
        },
      ]);
    });
    grid.append(cell);
  }
  show(
    'bank',
    true,
    el('h3', {}, 'Bank'),
    el(
      'div',
      { class: 'hint' },
      'Click a bank item to withdraw it; click an inventory item and Deposit to store it.',
    ),
    bank.length > 0 ? grid : el('div', {}, 'Your bank is empty.'),
    button('Close', () => {
      app.state.bank = null;
      app.refresh('bank', 'inventory');
    }),
  );
}

/** The recipes of an opened station (or of the items in hand): make 1, 5 or all (28). */
export function renderStation(app: App): void {
  const st = app.state.station;
  if (st === null) {
    show('station', false);
    return;
  }
  const rows = st.recipes.map((r) => {
    const make = (quantity: number, label: string) =>
      button(
        label,
        () => {
          app.send('skill:make', {
            recipeId: r.recipeId,
            quantity,
            ...(st.targetId ? { targetId: st.targetId } : {}),
          });
          app.state.station = null;
          renderStation(app);
        },
        { 'data-action': `Make ${label}` },
      );
    const low = r.kind !== 'tanning' && levelOf(app.state.me?.skills, r.kind) < r.level;
    const what = r.kind === 'firemaking' ? `Light a fire (${itemName(r.recipeId)})` : itemName(r.recipeId);
    return el(
      'div',
      { class: `row ${low ? 'off' : ''}`, 'data-recipe': r.recipeId },
      el('span', {}, `${what} (${prettyId(r.kind)} ${r.level})`),
      el('span', {}, make(1, '1'), make(5, '5'), make(28, 'All')),
    );
  });
  const title =
    st.stationType === 'hand' ? 'Make' : (STATIONS[st.stationType]?.name ?? prettyId(st.stationType));
  show(
    'station',
    true,
    el('h3', {}, title),
    el(
      'div',
      { class: 'hint' },
      'Greyed out: your level is too low. You need the materials in your inventory.',
    ),
    ...(rows.length ? rows : [el('div', {}, 'Nothing to make here.')]),
    button('Close', () => {
      app.state.station = null;
      renderStation(app);
    }),
  );
}

export function renderShop(app: App): void {
  const shop = app.state.shop;
  if (shop === null) {
    show('shop', false);
    return;
  }
  const grid = el('div', { class: 'grid' });
  for (const it of shop.items) {
    const cell = el('div', { class: 'slot', 'data-item': it.itemId }, itemName(it.itemId));
    cell.append(el('span', { class: 'q' }, `${it.price} gp`));
    cell.append(el('span', {}, it.stock < 0 ? '∞' : `${it.stock} left`));
    cell.addEventListener('click', (ev) => {
      ev.stopPropagation();
      const buy = (quantity: number) => () =>
        app.send('shop:buy', { shopId: shop.shopId, itemId: it.itemId, quantity });
      app.ui.menu(ev.clientX, ev.clientY, `${itemName(it.itemId)}: ${it.price} coins`, [
        { label: 'Buy 1', run: buy(1) },
        { label: 'Buy 5', run: buy(5) },
        { label: 'Buy 10', run: buy(10) },
        {
          label: `Examine ${itemName(it.itemId)}`,
          run: () => app.ui.chatLine(itemExamine(it.itemId), 'system'),
        },
      ]);
    });
    grid.append(cell);
  }
  show(
    'shop',
    true,
    el('h3', { 'data-testid': 'shop-title' }, shop.name),
    el(
      'div',
      { class: 'hint' },
      `You have ${app.state.me?.coins ?? 0} coins. Click an item to buy it${
        shop.buyback
          ? `; click an inventory item to sell it (${Math.round(shop.sellRate * 100)}% of its value).`
          : '.'
      }`,
    ),
    grid,
    button('Close', () => app.send('shop:close', { shopId: shop.shopId })),
  );
}

export function renderDialogue(app: App): void {
  const d = app.state.dialogue;
  if (d === null) {
    show('dialogue', false);
    return;
  }
  const name = app.state.entities.get(d.entityId)?.name ?? npcName(d.npcId);
  const options = d.options.map((o) => {
    const b = el('button', { type: 'button', 'data-option': String(o.id), class: 'option' }, o.text);
    b.addEventListener('click', () => app.send('dialogue:choose', { optionId: o.id }));
    return b;
  });
  show(
    'dialogue',
    true,
    el('h3', {}, name),
    el('p', { 'data-testid': 'dialogue-text' }, d.text),
    ...options,
    button(options.length > 0 ? 'Close' : 'Continue', () => {
      app.send('dialogue:close', {});
      app.state.dialogue = null;
      renderDialogue(app);
    }),
  );
}
