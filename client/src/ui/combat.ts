import { PRAYERS, SPELLS } from 'virtual:content';
import type { App } from '../app.ts';
import { itemName } from '../content.ts';
import { prettyId } from '../game.ts';
import { clock } from '../messages.ts';
import { $, button, el } from './dom.ts';

/** The combat, magic and prayer tabs. */

const COMBAT_STYLES = ['accurate', 'aggressive', 'defensive', 'controlled', 'rapid', 'longrange'];

/** Attack style buttons (the active one highlighted) and the auto-retaliate switch. */
export function renderCombat(app: App): void {
  const c = app.state.combat;
  const styles = el('div', { class: 'grid styles' });
  for (const style of COMBAT_STYLES) {
    const b = el(
      'button',
      { type: 'button', 'data-style': style, class: style === c.style ? 'active' : '' },
      prettyId(style),
    );
    b.addEventListener('click', () => {
      app.send('combat:style', { style: style as 'accurate' });
      c.style = style;
      renderCombat(app);
    });
    styles.append(b);
  }
  const retaliate = button(
    `Auto retaliate: ${c.autoRetaliate ? 'on' : 'off'}`,
    () => {
      c.autoRetaliate = !c.autoRetaliate;
      app.send('combat:autoRetaliate', { enabled: c.autoRetaliate });
      renderCombat(app);
    },
    { 'data-testid': 'auto-retaliate' },
  );
  const me = app.state.me;
  $('panel-combat').replaceChildren(
    el('div', {}, `Combat level ${me?.combatLevel ?? '?'} — HP ${me?.health ?? '?'}/${me?.maxHealth ?? '?'}`),
    el('div', {}, 'Attack style'),
    styles,
    el('div', {}, retaliate),
  );
}

/** How many of an item the inventory holds. */
function held(app: App, itemId: string): number {
  return (app.state.me?.inventory ?? []).reduce((n, s) => n + (s?.itemId === itemId ? s.quantity : 0), 0);
}

/** The home teleport's state in words: casting, cooling down (with the time when known), or ready. */
export function teleportText(app: App, now: number): string {
  const s = app.state;
  if (s.teleport)
    return `Home teleport: casting… ${Math.round(Math.min(1, (now - s.teleport.start) / s.teleport.ms) * 100)}%`;
  if (s.teleportReadyAt !== null && s.teleportReadyAt > now)
    return `Home teleport: ready in ${clock((s.teleportReadyAt - now) / 1000)}`;
  if (s.teleportCooling) return 'Home teleport: cooling down (click to see how long)';
  return 'Home teleport';
}

/** Spells to autocast (with the runes each needs and how many you hold), and the home teleport. */
export function renderMagic(app: App): void {
  const { state } = app;
  const level = state.me?.skills['magic']?.level ?? 1;
  const rows = SPELLS.map((sp) => {
    const on = state.combat.spell === sp.id;
    const runes = sp.runes
      .map((r) => `${r.quantity} ${itemName(r.itemId)} (${held(app, r.itemId)})`)
      .join(', ');
    const row = el(
      'div',
      { class: `row spell ${on ? 'on' : sp.level > level ? 'off' : ''}`, 'data-spell': sp.id },
      el('span', {}, `${sp.name} (level ${sp.level})`),
      el('span', {}, on ? 'autocast' : ''),
    );
    row.title = `Needs ${runes} per cast`;
    row.append(el('div', { class: 'small' }, `Runes: ${runes}`));
    row.addEventListener('click', () => {
      app.send('combat:spell', { spellId: on ? null : sp.id });
      state.combat.spell = on ? null : sp.id;
      app.ui.chatLine(on ? 'You stop autocasting.' : `You will cast ${sp.name} when you attack.`, 'system');
      renderMagic(app);
    });
    return row;
  });
  const tele = button(teleportText(app, performance.now()), () => app.homeTeleport(), {
    'data-testid': 'home-teleport',
  });
  $('panel-magic').replaceChildren(
    tele,
    el('div', { class: 'hint' }, 'Click a spell to cast it when you attack; click it again to stop.'),
    ...(rows.length > 0 ? rows : [el('div', {}, 'This world has no combat spells.')]),
  );
}

/** Keep the teleport button's words current (casting %, countdown) without drawing the panel again. */
export function tickMagic(app: App, now: number): void {
  const b = document.querySelector<HTMLButtonElement>('[data-testid=home-teleport]');
  const text = teleportText(app, now);
  if (b && b.textContent !== text) b.textContent = text;
}

/** Prayer points and every prayer: click to switch it on or off (greyed out above your level). */
export function renderPrayer(app: App): void {
  const p = app.state.prayer;
  const level = app.state.me?.skills['prayer']?.level ?? 1;
  const rows = PRAYERS.map((pr) => {
    const on = p.active.includes(pr.id);
    const row = el(
      'div',
      { class: `row clickable ${on ? 'on' : pr.level > level ? 'off' : ''}`, 'data-prayer': pr.id },
      el('span', {}, pr.name),
      el('span', {}, on ? 'on' : `level ${pr.level}`),
    );
    row.addEventListener('click', () => app.send('prayer:toggle', { prayerId: pr.id, active: !on }));
    return row;
  });
  $('panel-prayer').replaceChildren(
    el('div', { 'data-testid': 'prayer-points' }, `Prayer points ${p.points}/${p.maxPoints}`),
    el('div', { class: 'hint' }, 'Prayers drain points while on; pray at an altar to restore them.'),
    ...rows,
    button('All off', () => app.send('prayer:deactivateAll', {})),
  );
}
