import { type GameState, prettyId } from './game.ts';
import type { GameConnection, ItemStack, TradeOffer } from './protocol.ts';

/** The DOM side: panels, context menus, the bank and trade windows, the chat log. */

const $ = <T extends HTMLElement = HTMLElement>(id: string) => document.getElementById(id) as T;

export function el<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attrs: Record<string, string> = {},
  ...children: (Node | string)[]
): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
  for (const c of children) node.append(c);
  return node;
}

export interface MenuItem {
  label: string;
  run: () => void;
}

export class Ui {
  constructor(
    private readonly state: GameState,
    private readonly conn: () => GameConnection | null,
  ) {
    for (const b of document.querySelectorAll<HTMLButtonElement>('#tabs button')) {
      b.addEventListener('click', () => this.showTab(b.dataset['tab'] ?? 'inventory'));
    }
    document.addEventListener('click', (ev) => {
      if (!(ev.target as HTMLElement).closest('#menu')) this.hideMenu();
    });
  }

  private send(event: string, payload: object = {}): void {
    this.conn()?.send(event, payload);
  }

  showTab(tab: string): void {
    for (const b of document.querySelectorAll<HTMLButtonElement>('#tabs button')) {
      b.classList.toggle('active', b.dataset['tab'] === tab);
    }
    for (const name of ['inventory', 'equipment', 'skills']) {
      $(`panel-${name}`).classList.toggle('hidden', name !== tab);
    }
  }

  menu(x: number, y: number, title: string, items: MenuItem[]): void {
    const m = $('menu');
    m.replaceChildren(el('div', { class: 'row' }, el('b', {}, title)));
    for (const item of items) {
      const b = el('button', { 'data-action': item.label }, item.label);
      b.addEventListener('click', (ev) => {
        ev.stopPropagation();
        this.hideMenu();
        item.run();
      });
      m.append(b);
    }
    m.style.left = `${x}px`;
    m.style.top = `${y}px`;
    m.classList.remove('hidden');
  }

  hideMenu(): void {
    $('menu').classList.add('hidden');
  }

  chatLine(text: string, cls = ''): void {
    const log = $('chat-log');
    log.append(el('div', { class: cls }, text));
    while (log.childElementCount > 200) log.firstElementChild?.remove();
    log.scrollTop = log.scrollHeight;
  }

  status(lines: string[]): void {
    $('status').textContent = lines.join('\n');
  }

  renderMe(): void {
    const me = this.state.me;
    if (!me) return;
    $('me').textContent =
      `${me.name} (level ${me.combatLevel}) — HP ${me.health}/${me.maxHealth} — ${me.coins} coins`;
  }

  renderInventory(): void {
    const me = this.state.me;
    if (!me) return;
    const grid = el('div', { class: 'grid' });
    me.inventory.forEach((stack, slot) => {
      const cell = el('div', { class: stack ? 'slot' : 'slot empty', 'data-slot': String(slot) });
      if (stack) cell.dataset['item'] = stack.itemId;
      if (stack) {
        cell.append(prettyId(stack.itemId));
        if (stack.quantity > 1) cell.append(el('span', { class: 'q' }, String(stack.quantity)));
        cell.addEventListener('click', (ev) => {
          ev.stopPropagation();
          this.menu(ev.clientX, ev.clientY, prettyId(stack.itemId), this.slotActions(slot, stack));
        });
      }
      grid.append(cell);
    });
    $('panel-inventory').replaceChildren(grid);
  }

  private slotActions(slot: number, stack: ItemStack): MenuItem[] {
    const items: MenuItem[] = [{ label: 'Use', run: () => this.send('inventory:use', { slot }) }];
    const trade = this.state.trade;
    if (trade?.kind === 'offer') {
      items.unshift({
        label: 'Offer',
        run: () => this.send('tradeAddItem', { tradeId: trade.tradeId, inventorySlot: slot }),
      });
    }
    if (this.state.bank !== null) {
      items.unshift({ label: 'Deposit', run: () => this.send('bank:deposit', { slot }) });
    }
    items.push({ label: 'Drop', run: () => this.send('inventory:drop', { slot, quantity: stack.quantity }) });
    return items;
  }

  renderEquipment(): void {
    const me = this.state.me;
    if (!me) return;
    const rows = Object.entries(me.equipment).map(([slot, stack]) => {
      const row = el(
        'div',
        { class: 'row' },
        el('span', {}, slot),
        el('span', {}, stack ? prettyId(stack.itemId) : '—'),
      );
      if (stack) {
        row.style.cursor = 'pointer';
        row.title = 'Take off';
        row.addEventListener('click', () => this.send('equipment:unequip', { slot }));
      }
      return row;
    });
    $('panel-equipment').replaceChildren(...rows);
  }

  renderSkills(): void {
    const me = this.state.me;
    if (!me) return;
    const rows = Object.entries(me.skills).map(([skill, v]) =>
      el(
        'div',
        { class: 'row', 'data-skill': skill },
        el('span', {}, prettyId(skill)),
        el('span', {}, `${v.level} (${Math.floor(v.xp)} xp)`),
      ),
    );
    $('panel-skills').replaceChildren(...rows);
  }

  renderBank(): void {
    const bank = this.state.bank;
    const win = $('bank');
    if (bank === null) {
      win.classList.add('hidden');
      return;
    }
    const close = el('button', {}, 'Close');
    close.addEventListener('click', () => {
      this.state.bank = null;
      this.renderBank();
      this.renderInventory();
    });
    const grid = el('div', { class: 'grid' });
    for (const stack of bank) {
      const cell = el('div', { class: 'slot', 'data-item': stack.itemId }, prettyId(stack.itemId));
      cell.append(el('span', { class: 'q' }, String(stack.quantity)));
      cell.title = 'Withdraw';
      cell.addEventListener('click', (ev) => {
        ev.stopPropagation();
        this.menu(ev.clientX, ev.clientY, prettyId(stack.itemId), [
          {
            label: 'Withdraw 1',
            run: () => this.send('bank:withdraw', { itemId: stack.itemId, quantity: 1 }),
          },
          { label: 'Withdraw all', run: () => this.send('bank:withdraw', { itemId: stack.itemId }) },
        ]);
      });
      grid.append(cell);
    }
    win.replaceChildren(
      el('h3', {}, 'Bank'),
      el('div', {}, 'Click an inventory item to deposit it.'),
      grid,
      close,
    );
    win.classList.remove('hidden');
  }

  renderTrade(): void {
    const t = this.state.trade;
    const win = $('trade');
    if (t === null) {
      win.classList.add('hidden');
      return;
    }
    const offer = (title: string, o: TradeOffer, mine: boolean) => {
      const box = el('div', { 'data-testid': mine ? 'my-offer' : 'their-offer' }, el('b', {}, title));
      for (const it of o.items) {
        const row = el(
          'div',
          { class: 'row' },
          el('span', {}, prettyId(it.itemId)),
          el('span', {}, String(it.quantity)),
        );
        if (mine && t.kind === 'offer') {
          row.style.cursor = 'pointer';
          row.title = 'Remove';
          row.addEventListener('click', () =>
            this.send('tradeRemoveItem', { tradeId: t.tradeId, tradeSlot: it.tradeSlot }),
          );
        }
        box.append(row);
      }
      box.append(el('div', {}, `Coins: ${o.coins}`));
      box.append(
        el('div', { class: o.accepted ? 'accepted' : '' }, o.accepted ? 'Accepted' : 'Not accepted'),
      );
      return box;
    };
    const accept = el('button', { 'data-testid': 'trade-accept' }, 'Accept');
    accept.addEventListener('click', () => this.send('tradeAccept', { tradeId: t.tradeId }));
    const decline = el('button', { 'data-testid': 'trade-decline' }, 'Decline');
    decline.addEventListener('click', () => this.send('tradeCancel', { tradeId: t.tradeId }));
    const parts: (Node | string)[] = [
      el(
        'h3',
        { 'data-testid': 'trade-title' },
        t.kind === 'offer' ? `Trading with ${t.partnerName}` : `Confirm trade with ${t.partnerName}`,
      ),
    ];
    if (t.kind === 'offer') {
      parts.push(
        el('div', {}, 'Click an inventory item to offer it; click your offered item to take it back.'),
      );
      const coins = el('input', {
        type: 'number',
        min: '0',
        placeholder: 'coins',
        'data-testid': 'trade-coins',
      });
      const setCoins = el('button', {}, 'Offer coins');
      setCoins.addEventListener('click', () =>
        this.send('tradeAddItem', {
          tradeId: t.tradeId,
          coins: Math.max(0, Math.floor(Number(coins.value) || 0)),
        }),
      );
      parts.push(el('div', {}, coins, setCoins));
    } else {
      parts.push(el('div', {}, `Value: you give ${t.values.myOffer}, you get ${t.values.theirOffer}`));
    }
    parts.push(
      el(
        'div',
        { class: 'cols' },
        offer('Your offer', t.myOffer, true),
        offer(`${t.partnerName}'s offer`, t.theirOffer, false),
      ),
      el('div', {}, accept, ' ', decline),
    );
    win.replaceChildren(...parts);
    win.classList.remove('hidden');
  }

  notice(text: string, buttons: MenuItem[]): void {
    const n = $('notice');
    const parts: Node[] = [el('div', {}, text)];
    for (const b of buttons) {
      const btn = el('button', { 'data-action': b.label }, b.label);
      btn.addEventListener('click', () => {
        n.classList.add('hidden');
        b.run();
      });
      parts.push(btn);
    }
    n.replaceChildren(...parts);
    n.classList.remove('hidden');
  }
}
