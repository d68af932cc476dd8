import type { App } from '../app.ts';
import { itemExamine, itemName } from '../content.ts';
import { prettyId } from '../game.ts';
import { $, button, el } from './dom.ts';

/**
 * The player line with health, prayer and run energy bars, the run switch and Log out; the equipment
 * (click to take off) and the skills with level, xp and the xp to the next level.
 */

/** The classic table: xp for level L is floor(sum(floor(l + 300 * 2^(l/7)) for l < L) / 4). */
export function xpForLevel(level: number): number {
  let points = 0;
  for (let l = 1; l < level; l++) points += Math.floor(l + 300 * 2 ** (l / 7));
  return Math.floor(points / 4);
}

function bar(label: string, value: number, max: number, cls: string, testid: string): HTMLElement {
  const pct = max > 0 ? Math.max(0, Math.min(100, (value / max) * 100)) : 0;
  const fill = el('div', { class: `fill ${cls}` });
  fill.style.width = `${pct}%`;
  return el('div', { class: 'bar', 'data-testid': testid }, fill, el('span', {}, `${label} ${value}/${max}`));
}

export function renderMe(app: App): void {
  const { state } = app;
  const me = state.me;
  if (!me) return;
  const energy = me.runEnergy;
  const run = button(
    energy === undefined
      ? `Run: ${state.run ? 'on' : 'off'}`
      : `Run: ${state.run ? 'on' : 'off'} (${energy}%)`,
    () => app.toggleRun(),
    { 'data-testid': 'run-toggle', class: state.run ? 'active' : '' },
  );
  const parts: Node[] = [
    el('div', { class: 'who' }, `${me.name} — combat level ${me.combatLevel} — ${me.coins} coins`),
    bar('HP', me.health, me.maxHealth, 'hp', 'hp-bar'),
    bar('Prayer', state.prayer.points, state.prayer.maxPoints, 'pray', 'prayer-bar'),
  ];
  if (energy !== undefined) parts.push(bar('Run energy', energy, 100, 'run', 'run-energy'));
  parts.push(
    el(
      'div',
      { class: 'me-buttons' },
      run,
      button('Log out', () => app.logout(), { 'data-testid': 'logout' }),
    ),
  );
  $('me').replaceChildren(...parts);
}

export function renderEquipment(app: App): void {
  const me = app.state.me;
  if (!me) return;
  type Slot = keyof typeof me.equipment;
  const rows = (Object.entries(me.equipment) as [Slot, (typeof me.equipment)[Slot]][]).map(
    ([slot, stack]) => {
      const row = el(
        'div',
        { class: 'row', 'data-slot': slot },
        el('span', {}, prettyId(slot)),
        el('span', {}, stack ? itemName(stack.itemId) : '—'),
      );
      if (stack) {
        row.classList.add('clickable');
        row.title = 'Take off, or examine';
        row.addEventListener('click', (ev) => {
          ev.stopPropagation();
          app.ui.menu(ev.clientX, ev.clientY, itemName(stack.itemId), [
            {
              label: `Take off ${itemName(stack.itemId)}`,
              run: () => app.send('equipment:unequip', { slot }),
            },
            {
              label: `Examine ${itemName(stack.itemId)}`,
              run: () => app.ui.chatLine(itemExamine(stack.itemId), 'system'),
            },
          ]);
        });
      }
      return row;
    },
  );
  $('panel-equipment').replaceChildren(
    el('div', { class: 'hint' }, 'Click a worn item to take it off.'),
    ...rows,
  );
}

export function renderSkills(app: App): void {
  const me = app.state.me;
  if (!me) return;
  const rows = Object.entries(me.skills).map(([skill, v]) => {
    const next = v.level < 99 ? xpForLevel(v.level + 1) : null;
    const row = el(
      'div',
      { class: 'row', 'data-skill': skill },
      el('span', {}, prettyId(skill)),
      el('span', {}, `level ${v.level}`),
    );
    row.title =
      next === null
        ? `${Math.floor(v.xp)} xp`
        : `${Math.floor(v.xp)} xp; ${next - Math.floor(v.xp)} to level ${v.level + 1}`;
    return row;
  });
  $('panel-skills').replaceChildren(
    el('div', { class: 'hint' }, 'Hover a skill for its xp and what is left to the next level.'),
    ...rows,
  );
}
