import WebSocket from 'ws';
import { decode, encode, type WorkerInit, type WorkerReport } from './protocol.ts';

/**
 * A fighting bot (bench:combat, scenario `combat`): a real WebSocket client that decodes everything it
 * is sent and keeps its own picture of what is in view, as a game client does. On each world:update it
 * eats when under half health (food from its inventory, as player:sync lists it), else picks up loot it
 * sees lying within a few tiles (the killer's drops are visible to it alone), else attacks one of the
 * NPCs nearest to it when it is not fighting. It counts the hits and deaths the updates show on
 * entities in its view (the world:update `hits` and `death`), and the events of its own fights.
 */

interface Seen {
  type: string;
  npcId?: string;
  x: number;
  z: number;
  itemId?: string;
}

type Entry = Seen & {
  id: string;
  targetId?: string | null;
  hits?: unknown[];
  death?: unknown;
};

/** Food of the default content a new character may carry (heals when used). */
const FOOD = new Set(['barley_loaf', 'grilled_minnow', 'baked_perch']);
/** The fight's NPCs (bench/load/fight-area.ts); the town's shopkeepers and guides cannot be fought. */
const PREY = new Set(['thornback_boar', 'marsh_rat', 'ash_wolf', 'farm_goose']);
/** Loot worth a trip (a few tiles at most). */
const LOOT_RANGE = 4;

export function startCombatBot(
  init: WorkerInit,
  index: number,
  report: WorkerReport,
  sockets: WebSocket[],
  stopping: () => boolean,
): void {
  const ws = new WebSocket(`${init.url}?encoding=msgpack`);
  sockets.push(ws);
  let id = '';
  let x = 0;
  let z = 0;
  let entered = false;
  let health = 10;
  let maxHealth = 10;
  let fighting: string | null = null;
  /** Tick of the last command, so that a bot sends at most one a tick and waits for its outcome. */
  let actedTick = -10;
  let food: number[] = [];
  let freeSlots = 28;
  const view = new Map<string, Seen>();
  const send = (event: string, payload: object, tick: number) => {
    actedTick = tick;
    ws.send(encode(event, payload));
  };

  const think = (tick: number) => {
    if (tick - actedTick < 2) return;
    if (health * 2 < maxHealth && food.length > 0) {
      report.eats = (report.eats ?? 0) + 1;
      send('inventory:use', { slot: food[0] }, tick);
      food = food.slice(1);
      return;
    }
    if (freeSlots > 0) {
      for (const [eid, e] of view) {
        if (e.type !== 'item' || Math.max(Math.abs(e.x - x), Math.abs(e.z - z)) > LOOT_RANGE) continue;
        report.loots = (report.loots ?? 0) + 1;
        view.delete(eid);
        send('player:action', { action: 'pickup', targetId: eid }, tick);
        return;
      }
    }
    if (fighting !== null && view.has(fighting)) return;
    // One of the nearest NPCs (not always the nearest: 2,000 bots at one spawn would all pick the same).
    const near: [number, string][] = [];
    for (const [eid, e] of view) {
      if (e.type !== 'npc' || !PREY.has(e.npcId ?? '')) continue;
      near.push([Math.max(Math.abs(e.x - x), Math.abs(e.z - z)), eid]);
    }
    if (near.length === 0) return;
    near.sort((a, b) => a[0] - b[0]);
    const pick = near[Math.floor(Math.random() * Math.min(5, near.length))] as [number, string];
    fighting = pick[1];
    report.attacks = (report.attacks ?? 0) + 1;
    send('player:action', { action: 'attack', targetId: pick[1] }, tick);
  };

  ws.on('open', () => {
    report.connected++;
    ws.send(encode('authenticate', { name: `fighter${init.firstBot + index}` }));
  });
  ws.on('message', (data: Buffer) => {
    report.messagesIn++;
    report.bytesIn += data.length;
    const msg = decode(data);
    if (!msg) return;
    const [event, payload] = msg;
    if (event === 'world:update') {
      const tick = payload.tick as number;
      for (const e of payload.entities as Entry[]) {
        if (e.hits !== undefined) report.hitsSeen = (report.hitsSeen ?? 0) + e.hits.length;
        if (e.death !== undefined) report.deathsSeen = (report.deathsSeen ?? 0) + 1;
        if (e.id === id) {
          x = e.x;
          z = e.z;
          if (e.targetId !== undefined) fighting = e.targetId;
          continue;
        }
        const known = view.get(e.id);
        if (known) {
          known.x = e.x;
          known.z = e.z;
        } else
          view.set(e.id, {
            type: e.type,
            x: e.x,
            z: e.z,
            ...(e.itemId ? { itemId: e.itemId } : {}),
            ...(e.npcId ? { npcId: e.npcId } : {}),
          });
      }
      for (const gone of payload.removed as string[]) view.delete(gone);
      if (entered) think(tick);
    } else if (event === 'authResult') {
      if (payload.success !== true) {
        report.failed++;
        ws.close();
        return;
      }
      id = String(payload.characterId);
    } else if (event === 'player:sync') {
      health = payload.health as number;
      maxHealth = payload.maxHealth as number;
      const inv = payload.inventory as ({ itemId: string } | null)[];
      food = [];
      freeSlots = 0;
      inv.forEach((s, slot) => {
        if (s === null) freeSlots++;
        else if (FOOD.has(s.itemId)) food.push(slot);
      });
      if (!entered) {
        entered = true;
        report.inWorld++;
      }
    } else if (event === 'entity:death') {
      if (payload.id === id) report.died = (report.died ?? 0) + 1;
      else if (payload.killerId === id) report.kills = (report.kills ?? 0) + 1;
      if (payload.id === fighting) fighting = null;
    } else if (event === 'combat:hit') {
      report.ownHits = (report.ownHits ?? 0) + 1;
    } else if (event === 'error') {
      const code = String(payload.code);
      report.errors[code] = (report.errors[code] ?? 0) + 1;
      fighting = null;
    }
  });
  ws.on('close', (code) => {
    if (!stopping()) report.errors[`close ${code}`] = (report.errors[`close ${code}`] ?? 0) + 1;
    if (entered && !stopping()) report.inWorld--;
    report.connected--;
  });
  ws.on('error', () => {
    report.failed++;
  });
}
