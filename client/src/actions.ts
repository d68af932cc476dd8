import { NPCS, STATIONS } from 'virtual:content';
import type { App } from './app.ts';
import { examineText, itemName, pvpAllowedAt } from './content.ts';
import { prettyId, type ViewEntity } from './game.ts';
import type { MenuItem } from './ui/dom.ts';
import type { ClientPayload } from './wire.ts';

/**
 * What a click on the stage offers: the verbs of the entities on the tile (`player:action`), an item
 * picked with Use to use on them, `Take` by item with `Take all` for a pile, `Walk here` and Examine
 * with the content's own words.
 */

type Action = ClientPayload<'player:action'>['action'];

/** The menu verb of a resource node by its kind (as in world:update). */
const GATHER_VERBS: Record<string, string> = {
  tree: 'Chop',
  rock: 'Mine',
  ore: 'Mine',
  fishing_spot: 'Fish',
  fishing: 'Fish',
};

export function entityName(e: ViewEntity): string {
  switch (e.type) {
    case 'npc':
      return e.name ?? NPCS[e.npcId ?? '']?.name ?? prettyId(e.npcId ?? 'npc');
    case 'item':
      return itemName(e.itemId ?? 'item');
    case 'station':
      // An agility obstacle is named on the wire (its kind, `obstacle`, says nothing).
      return e.name ?? STATIONS[e.stationType ?? '']?.name ?? prettyId(e.stationType ?? 'station');
    case 'resource':
      return prettyId(e.resourceId ?? 'resource');
    default:
      return e.name ?? 'Someone';
  }
}

/** The verbs an entity answers, as menu entries. */
export function entityActions(app: App, e: ViewEntity): MenuItem[] {
  const act = (action: Action) => () => app.send('player:action', { action, targetId: e.id });
  const name = entityName(e);
  switch (e.type) {
    case 'player': {
      const me = app.state.me;
      if (!me || e.id === me.id) return [];
      const items: MenuItem[] = [{ label: `Trade with ${name}`, run: act('trade') }];
      if (pvpAllowedAt(me.position.x, me.position.z) && pvpAllowedAt(e.x, e.z))
        items.unshift({ label: `Attack ${name}`, run: act('attack') });
      return items;
    }
    case 'resource':
      return e.depleted
        ? []
        : [{ label: `${GATHER_VERBS[e.kind ?? ''] ?? 'Gather'} ${name}`, run: act('gather') }];
    case 'station': {
      const type = e.stationType ?? '';
      if (type === 'bank') return [{ label: `Bank at ${name}`, run: act('bank') }];
      if (type === 'obstacle') return [{ label: `Cross ${name}`, run: act('cross') }];
      const items: MenuItem[] = [{ label: `Use ${name}`, run: act('use') }];
      if (type === 'altar') items.push({ label: `Pray at ${name}`, run: act('pray') });
      return items;
    }
    case 'npc': {
      // An NPC the client's content does not know (another world): offer everything, the server says no.
      const verbs = NPCS[e.npcId ?? '']?.verbs ?? ['attack', 'talk'];
      const labels: Record<string, string> = {
        attack: `Attack ${name}`,
        talk: `Talk to ${name}`,
        shop: `Trade with ${name}`,
        bank: `Bank with ${name}`,
      };
      return verbs.map((v) => ({ label: labels[v] ?? v, run: act(v as Action) }));
    }
    default:
      return [];
  }
}

/**
 * Take the items of a pile one after another: each `pickup` once the one before has left the ground
 * (or failed), so a pile of thirty needs one click.
 */
export class PickupQueue {
  private queue: string[] = [];
  private waiting: string | null = null;

  constructor(private readonly app: App) {}

  start(ids: string[]): void {
    this.queue = [...ids];
    this.waiting = null;
    this.next();
  }

  cancel(): void {
    this.queue = [];
    this.waiting = null;
  }

  /** An entity left the view, or a pickup was refused: go on with the next. */
  settled(id: string | null): void {
    if (this.waiting !== null && (id === null || id === this.waiting)) {
      this.waiting = null;
      this.next();
    }
  }

  private next(): void {
    const id = this.queue.shift();
    if (id === undefined || !this.app.state.entities.has(id)) {
      if (id !== undefined) this.next();
      return;
    }
    this.waiting = id;
    this.app.send('player:action', { action: 'pickup', targetId: id });
  }
}

/** The menu for a click on tile (x, z), or null when there is nothing there (a walk). */
export function tileMenu(
  app: App,
  pickups: PickupQueue,
  x: number,
  z: number,
): { title: string; items: MenuItem[] } | null {
  const { state } = app;
  const here = state.at(x, z).filter((e) => e.id !== state.me?.id);
  const using = state.using;
  if (here.length === 0) return null;
  const items: MenuItem[] = [];
  if (using) {
    for (const e of here.filter((v) => v.type !== 'item')) {
      items.push({
        label: `Use ${itemName(using.itemId)} on ${entityName(e)}`,
        targetId: e.id,
        run: () => {
          state.using = null;
          app.refresh('inventory');
          app.approach(e.id, () => app.send('inventory:use', { slot: using.slot, targetId: e.id }));
        },
      });
    }
  }
  for (const e of here.filter((v) => v.type !== 'item')) {
    for (const item of entityActions(app, e)) items.push({ ...item, targetId: e.id });
  }
  // Ground items: one Take per kind of item, and Take all when there are several.
  const ground = here.filter((v) => v.type === 'item');
  const byItem = new Map<string, ViewEntity[]>();
  for (const g of ground) byItem.set(g.itemId ?? '?', [...(byItem.get(g.itemId ?? '?') ?? []), g]);
  if (ground.length > 1)
    items.push({ label: `Take all (${ground.length})`, run: () => pickups.start(ground.map((g) => g.id)) });
  for (const [itemId, list] of byItem) {
    const count = list.reduce((n, g) => n + (g.quantity ?? 1), 0);
    const first = list[0] as ViewEntity;
    items.push({
      label: `Take ${itemName(itemId)}${count > 1 ? ` (${count})` : ''}`,
      targetId: first.id,
      run: () =>
        list.length > 1
          ? pickups.start(list.map((g) => g.id))
          : app.send('player:action', { action: 'pickup', targetId: first.id }),
    });
  }
  items.push({ label: 'Walk here', run: () => app.walk(x, z) });
  const examined = new Set<string>();
  for (const e of here) {
    const key = e.type === 'item' ? `item:${e.itemId}` : e.id;
    if (examined.has(key)) continue;
    examined.add(key);
    items.push({
      label: `Examine ${entityName(e)}`,
      targetId: e.id,
      run: () => app.ui.chatLine(examineText(e), 'system'),
    });
  }
  const first = here[0] as ViewEntity;
  const title =
    first.type === 'npc' && first.level ? `${entityName(first)} (level ${first.level})` : entityName(first);
  return { title, items };
}
