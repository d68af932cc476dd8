/** Small DOM helpers shared by the panels and windows. */

export const $ = <T extends HTMLElement = HTMLElement>(id: string) => document.getElementById(id) as T;

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

export function button(
  label: string,
  run: () => void,
  attrs: Record<string, string> = {},
): HTMLButtonElement {
  const b = el('button', { type: 'button', 'data-action': label, ...attrs }, label);
  b.addEventListener('click', (ev) => {
    ev.stopPropagation();
    run();
  });
  return b;
}

export interface MenuItem {
  label: string;
  run: () => void;
  /** The entity the entry acts on: two rats on one tile give two entries with the same label. */
  targetId?: string;
}

/** The dock beside the stage takes room only while one of its windows is open. */
export function syncDock(): void {
  const dock = $('dock');
  dock.classList.toggle(
    'empty',
    [...dock.children].every((c) => c.classList.contains('hidden')),
  );
}
