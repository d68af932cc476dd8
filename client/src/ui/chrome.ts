import { $, button, el, type MenuItem, syncDock } from './dom.ts';

/**
 * The parts of the page around the panels: the context menu, the chat log, notices (in the dock beside
 * the stage, never over it), short toasts for level-ups, the hint line, the status line, the connection
 * banner and the tabs.
 */

const TABS = ['inventory', 'equipment', 'skills', 'combat', 'magic', 'prayer', 'quests', 'friends'];

export class Chrome {
  private tabListener: ((tab: string) => void) | undefined;

  constructor() {
    for (const b of document.querySelectorAll<HTMLButtonElement>('#tabs button')) {
      b.addEventListener('click', () => this.showTab(b.dataset['tab'] ?? 'inventory'));
    }
    document.addEventListener('click', (ev) => {
      if (!(ev.target as HTMLElement).closest('#menu')) this.hideMenu();
    });
    document.addEventListener('keydown', (ev) => {
      if (ev.key === 'Escape') this.hideMenu();
    });
  }

  onTab(listener: (tab: string) => void): void {
    this.tabListener = listener;
  }

  showTab(tab: string): void {
    for (const b of document.querySelectorAll<HTMLButtonElement>('#tabs button')) {
      b.classList.toggle('active', b.dataset['tab'] === tab);
    }
    for (const name of TABS) $(`panel-${name}`).classList.toggle('hidden', name !== tab);
    this.tabListener?.(tab);
  }

  /** A context menu at (x, y) of the page; items run on a click. */
  menu(x: number, y: number, title: string, items: MenuItem[]): void {
    const m = $('menu');
    m.replaceChildren(el('div', { class: 'title' }, title));
    for (const item of items) {
      const attrs: Record<string, string> = { 'data-action': item.label, type: 'button' };
      if (item.targetId) attrs['data-target'] = item.targetId;
      const b = el('button', attrs, item.label);
      b.addEventListener('click', (ev) => {
        ev.stopPropagation();
        this.hideMenu();
        item.run();
      });
      m.append(b);
    }
    m.classList.remove('hidden');
    // Keep the menu inside the window.
    const w = m.offsetWidth;
    const h = m.offsetHeight;
    m.style.left = `${Math.max(0, Math.min(x, window.innerWidth - w - 4))}px`;
    m.style.top = `${Math.max(0, Math.min(y, window.innerHeight - h - 4))}px`;
  }

  hideMenu(): void {
    $('menu').classList.add('hidden');
  }

  chatLine(text: string, cls = ''): void {
    const log = $('chat-log');
    log.append(el('div', { class: cls }, text));
    while (log.childElementCount > 300) log.firstElementChild?.remove();
    log.scrollTop = log.scrollHeight;
  }

  /** A question with buttons, in the dock (a trade request): answered or replaced. */
  notice(text: string, buttons: MenuItem[]): void {
    const n = $('notice');
    const parts: Node[] = [el('div', {}, text)];
    for (const b of buttons) {
      parts.push(
        button(b.label, () => {
          n.classList.add('hidden');
          syncDock();
          b.run();
        }),
      );
    }
    n.replaceChildren(...parts);
    n.classList.remove('hidden');
    syncDock();
  }

  /** A line that shows for a few seconds at the top of the stage (a level gained). */
  toast(text: string): void {
    const box = $('toasts');
    const t = el('div', { class: 'toast' }, text);
    box.append(t);
    setTimeout(() => t.remove(), 5000);
  }

  hint(text: string): void {
    const h = $('hint');
    if (h.textContent !== text) h.textContent = text;
    h.classList.toggle('hidden', text === '');
  }

  status(lines: string[]): void {
    const text = lines.join('\n');
    const s = $('status');
    if (s.textContent !== text) s.textContent = text;
  }

  /** The connection banner: hidden while online. */
  connection(text: string, retry?: { label: string; run: () => void }): void {
    const c = $('connection');
    if (text === '') {
      c.classList.add('hidden');
      return;
    }
    c.replaceChildren(el('span', {}, text), ...(retry ? [button(retry.label, retry.run)] : []));
    c.classList.remove('hidden');
  }
}
