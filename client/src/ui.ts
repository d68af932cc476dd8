import { PRAYERS } from 'virtual:content';
import { type GameState, prettyId } from './game.ts';
import type { GameConnection, ItemStack, TradeOffer } from './protocol.ts';

const COMBAT_STYLES = ['accurate', 'aggressive', 'defensive', 'controlled', 'rapid', 'longrange'];
const TABS = ['inventory', 'equipment', 'skills', 'combat', 'prayer', 'quests', 'friends'];

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
  /** The entity the entry acts on: two rats on one tile give two entries with the same label. */
  targetId?: string;
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
    for (const name of TABS) {
      $(`panel-${name}`).classList.toggle('hidden', name !== tab);
    }
    // The quest list is asked for each time its tab opens.
    if (tab === 'quests') this.send('quest:list');
  }

  menu(x: number, y: number, title: string, items: MenuItem[]): void {
    const m = $('menu');
    m.replaceChildren(el('div', { class: 'row' }, el('b', {}, title)));
    for (const item of items) {
      const attrs: Record<string, string> = { 'data-action': item.label };
      if (item.targetId) attrs['data-target'] = item.targetId;
      const b = el('button', attrs, item.label);
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
    const shop = this.state.shop;
    if (shop?.buyback) {
      items.unshift({
        label: 'Sell',
        run: () => this.send('shop:sell', { shopId: shop.shopId, slot, quantity: 1 }),
      });
      if (stack.quantity > 1) {
        items.splice(1, 0, {
          label: 'Sell all',
          run: () => this.send('shop:sell', { shopId: shop.shopId, slot }),
        });
      }
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

  /** Attack style buttons (the active one highlighted) and the auto-retaliate switch. */
  renderCombat(): void {
    const c = this.state.combat;
    const styles = el('div', { class: 'grid styles' });
    for (const style of COMBAT_STYLES) {
      const b = el(
        'button',
        { 'data-style': style, class: style === c.style ? 'active' : '' },
        prettyId(style),
      );
      b.addEventListener('click', () => {
        this.send('combat:style', { style });
        c.style = style;
        this.renderCombat();
      });
      styles.append(b);
    }
    const retaliate = el(
      'button',
      { 'data-testid': 'auto-retaliate' },
      `Auto retaliate: ${c.autoRetaliate ? 'on' : 'off'}`,
    );
    retaliate.addEventListener('click', () => {
      c.autoRetaliate = !c.autoRetaliate;
      this.send('combat:autoRetaliate', { enabled: c.autoRetaliate });
      this.renderCombat();
    });
    const me = this.state.me;
    $('panel-combat').replaceChildren(
      el(
        'div',
        {},
        `Combat level ${me?.combatLevel ?? '?'} — HP ${me?.health ?? '?'}/${me?.maxHealth ?? '?'}`,
      ),
      el('div', {}, 'Attack style'),
      styles,
      el('div', {}, retaliate),
    );
  }

  /** Prayer points and every prayer: click to switch it on or off (greyed out above your level). */
  renderPrayer(): void {
    const p = this.state.prayer;
    const level = this.state.me?.skills['prayer']?.level ?? 1;
    const rows = PRAYERS.map((pr) => {
      const on = p.active.includes(pr.id);
      const row = el(
        'div',
        { class: `row ${on ? 'on' : pr.level > level ? 'off' : ''}`, 'data-prayer': pr.id },
        el('span', {}, pr.name),
        el('span', {}, on ? 'on' : `level ${pr.level}`),
      );
      row.style.cursor = 'pointer';
      row.addEventListener('click', () => this.send('prayer:toggle', { prayerId: pr.id, active: !on }));
      return row;
    });
    const off = el('button', {}, 'All off');
    off.addEventListener('click', () => this.send('prayer:deactivateAll'));
    $('panel-prayer').replaceChildren(
      el('div', { 'data-testid': 'prayer-points' }, `Prayer points ${p.points}/${p.maxPoints}`),
      ...rows,
      off,
    );
  }

  renderQuests(): void {
    const q = this.state.quests;
    if (!q) {
      $('panel-quests').replaceChildren(el('div', {}, 'Loading…'));
      return;
    }
    const rows = q.quests.map((quest) => {
      const status =
        quest.status === 'completed'
          ? 'done'
          : quest.status === 'in_progress'
            ? quest.count > 0
              ? `${quest.progress}/${quest.count}`
              : 'started'
            : 'not started';
      return el(
        'div',
        { class: `row ${quest.status === 'completed' ? 'on' : ''}`, 'data-quest': quest.questId },
        el('span', {}, quest.name),
        el('span', {}, status),
      );
    });
    $('panel-quests').replaceChildren(el('div', {}, `Quest points: ${q.questPoints}`), ...rows);
  }

  /** Friends with their online state, requests to answer, the ignore list, and a name box to add. */
  renderFriends(): void {
    const s = this.state.social;
    const button = (label: string, run: () => void) => {
      const b = el('button', { 'data-action': label }, label);
      b.addEventListener('click', run);
      return b;
    };
    const parts: Node[] = [el('b', {}, 'Friends')];
    for (const f of s.friends) {
      parts.push(
        el(
          'div',
          { class: 'row', 'data-friend': f.name },
          el(
            'span',
            { class: f.online ? 'on' : 'off' },
            `${f.name} — ${f.online ? `online${f.world === undefined ? '' : ` (world ${f.world})`}` : 'offline'}`,
          ),
          button('Remove', () => this.send('friend:remove', { name: f.name })),
        ),
      );
    }
    for (const r of s.requests) {
      parts.push(
        el(
          'div',
          { class: 'row', 'data-request': r.fromName },
          el('span', {}, `${r.fromName} asks`),
          el(
            'span',
            {},
            button('Accept', () => this.send('friend:respond', { requestId: r.requestId, accept: true })),
            button('Decline', () => this.send('friend:respond', { requestId: r.requestId, accept: false })),
          ),
        ),
      );
    }
    parts.push(el('b', {}, 'Ignored'));
    for (const i of s.ignored) {
      parts.push(
        el(
          'div',
          { class: 'row', 'data-ignored': i.name },
          el('span', {}, i.name),
          button('Unignore', () => this.send('ignore:remove', { name: i.name })),
        ),
      );
    }
    const name = el('input', { placeholder: 'player name', maxlength: '64', 'data-testid': 'friend-name' });
    const withName = (event: string) => () => {
      const n = name.value.trim();
      if (n) this.send(event, { name: n });
      name.value = '';
    };
    parts.push(
      name,
      el(
        'div',
        {},
        button('Add friend', withName('friend:request')),
        ' ',
        button('Ignore', withName('ignore:add')),
      ),
    );
    $('panel-friends').replaceChildren(...parts);
  }

  /** The recipes of an opened station: make 1, 5 or all (28) of one. */
  renderStation(): void {
    const st = this.state.station;
    const win = $('station');
    if (st === null) {
      win.classList.add('hidden');
      return;
    }
    const level = (kind: string) => this.state.me?.skills[kind]?.level;
    const rows = st.recipes.map((r) => {
      const make = (quantity: number) => {
        const b = el('button', { 'data-action': `Make ${quantity}` }, String(quantity));
        b.addEventListener('click', () => {
          this.send('skill:make', { recipeId: r.recipeId, quantity, targetId: st.targetId });
          this.state.station = null;
          this.renderStation();
        });
        return b;
      };
      const low = (level(r.kind) ?? 99) < r.level;
      return el(
        'div',
        { class: `row ${low ? 'off' : ''}`, 'data-recipe': r.recipeId },
        el('span', {}, `${prettyId(r.recipeId)} (${prettyId(r.kind)} ${r.level})`),
        el('span', {}, 'Make ', make(1), make(5), make(28)),
      );
    });
    const close = el('button', {}, 'Close');
    close.addEventListener('click', () => {
      this.state.station = null;
      this.renderStation();
    });
    win.replaceChildren(
      el('h3', {}, prettyId(st.stationType)),
      ...(rows.length ? rows : [el('div', {}, 'Nothing to make here.')]),
      close,
    );
    win.classList.remove('hidden');
  }

  renderShop(): void {
    const shop = this.state.shop;
    const win = $('shop');
    if (shop === null) {
      win.classList.add('hidden');
      return;
    }
    const grid = el('div', { class: 'grid' });
    for (const it of shop.items) {
      const cell = el('div', { class: 'slot', 'data-item': it.itemId }, prettyId(it.itemId));
      cell.append(el('span', { class: 'q' }, `${it.price} gp`));
      cell.append(el('span', {}, it.stock < 0 ? '∞' : `${it.stock} left`));
      cell.addEventListener('click', (ev) => {
        ev.stopPropagation();
        const buy = (quantity: number) => () =>
          this.send('shop:buy', { shopId: shop.shopId, itemId: it.itemId, quantity });
        this.menu(ev.clientX, ev.clientY, `${prettyId(it.itemId)}: ${it.price} coins`, [
          { label: 'Buy 1', run: buy(1) },
          { label: 'Buy 5', run: buy(5) },
          { label: 'Buy 10', run: buy(10) },
        ]);
      });
      grid.append(cell);
    }
    const close = el('button', {}, 'Close');
    close.addEventListener('click', () => this.send('shop:close', { shopId: shop.shopId }));
    win.replaceChildren(
      el('h3', { 'data-testid': 'shop-title' }, shop.name),
      el(
        'div',
        {},
        `You have ${this.state.me?.coins ?? 0} coins. Click an item to buy it${
          shop.buyback
            ? `; click an inventory item to sell it (${Math.round(shop.sellRate * 100)}% of its value).`
            : '.'
        }`,
      ),
      grid,
      close,
    );
    win.classList.remove('hidden');
  }

  renderDialogue(): void {
    const d = this.state.dialogue;
    const win = $('dialogue');
    if (d === null) {
      win.classList.add('hidden');
      return;
    }
    const name = this.state.entities.get(d.entityId)?.name ?? prettyId(d.npcId);
    const options = d.options.map((o) => {
      const b = el('button', { 'data-option': o.id }, o.text);
      b.style.display = 'block';
      b.addEventListener('click', () => this.send('dialogue:choose', { optionId: o.id }));
      return b;
    });
    const close = el('button', {}, 'Close');
    close.addEventListener('click', () => {
      this.send('dialogue:close');
      this.state.dialogue = null;
      this.renderDialogue();
    });
    win.replaceChildren(
      el('h3', {}, name),
      el('p', { 'data-testid': 'dialogue-text' }, d.text),
      ...options,
      close,
    );
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
