import type { App } from '../app.ts';
import { itemName } from '../content.ts';
import type { TradeOffer } from '../wire.ts';
import { $, button, el, syncDock } from './dom.ts';

/** The two trade screens: the offers (add, take back, accept) and the confirmation with each side's value. */

export function renderTrade(app: App): void {
  const t = app.state.trade;
  const win = $('trade');
  if (t === null) {
    win.classList.add('hidden');
    syncDock();
    return;
  }
  const offer = (title: string, o: TradeOffer, mine: boolean) => {
    const box = el('div', { 'data-testid': mine ? 'my-offer' : 'their-offer' }, el('b', {}, title));
    for (const it of o.items) {
      const row = el(
        'div',
        { class: 'row' },
        el('span', {}, itemName(it.itemId)),
        el('span', {}, String(it.quantity)),
      );
      if (mine && t.kind === 'offer') {
        row.classList.add('clickable');
        row.title = 'Take back';
        row.addEventListener('click', () =>
          app.send('tradeRemoveItem', { tradeId: t.tradeId, tradeSlot: it.tradeSlot }),
        );
      }
      box.append(row);
    }
    box.append(el('div', {}, `Coins: ${o.coins}`));
    box.append(el('div', { class: o.accepted ? 'accepted' : '' }, o.accepted ? 'Accepted' : 'Not accepted'));
    return box;
  };
  const parts: Node[] = [
    el(
      'h3',
      { 'data-testid': 'trade-title' },
      t.kind === 'offer' ? `Trading with ${t.partnerName}` : `Confirm trade with ${t.partnerName}`,
    ),
  ];
  if (t.kind === 'offer') {
    parts.push(
      el(
        'div',
        { class: 'hint' },
        'Click an inventory item to offer it; click your offered item to take it back.',
      ),
    );
    const coins = el('input', {
      type: 'number',
      min: '0',
      placeholder: 'coins',
      'data-testid': 'trade-coins',
    });
    parts.push(
      el(
        'div',
        {},
        coins,
        button('Offer coins', () =>
          app.send('tradeAddItem', {
            tradeId: t.tradeId,
            coins: Math.max(0, Math.floor(Number(coins.value) || 0)),
          }),
        ),
      ),
    );
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
    el(
      'div',
      {},
      button('Accept', () => app.send('tradeAccept', { tradeId: t.tradeId }), {
        'data-testid': 'trade-accept',
      }),
      ' ',
      button('Decline', () => app.send('tradeCancel', { tradeId: t.tradeId }), {
        'data-testid': 'trade-decline',
      }),
    ),
  );
  win.replaceChildren(...parts);
  win.classList.remove('hidden');
  syncDock();
}
