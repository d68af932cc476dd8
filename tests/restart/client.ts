import { GameClient, type Login, type Msg, type Payload } from '../crash/game-client.ts';

/**
 * Request/answer helpers over the crash tests' GameClient: send an event and wait for the answer,
 * failing at once with the server's error when it refuses the event instead.
 */

export type { Login, Payload };
export { GameClient };

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Sends `event` and resolves with the first later message `match` accepts; an `error` for the event rejects. */
export async function ask(
  c: GameClient,
  event: string,
  payload: object,
  match: (m: Msg) => boolean,
  timeoutMs = 15_000,
): Promise<Payload> {
  const answer = c.waitFor((m) => match(m) || (m.event === 'error' && m.payload.event === event), timeoutMs);
  c.send(event, payload);
  const m = await answer;
  if (m.event === 'error' && !match(m)) throw new Error(`${event} refused: ${JSON.stringify(m.payload)}`);
  return m.payload;
}

/** The next `event` whose payload `pred` accepts, after sending `send` (if given). */
export function next(
  c: GameClient,
  event: string,
  pred: (p: Payload) => boolean = () => true,
  timeoutMs = 15_000,
): Promise<Payload> {
  return c.waitFor((m) => m.event === event && pred(m.payload), timeoutMs).then((m) => m.payload);
}

/** A message already received (world:update aside) or, failing that, the next one. */
export async function seenOrNext(
  c: GameClient,
  event: string,
  pred: (p: Payload) => boolean = () => true,
  timeoutMs = 15_000,
): Promise<Payload> {
  const waiting = next(c, event, pred, timeoutMs);
  const already = c.seen((m) => m.event === event && pred(m.payload));
  if (already) {
    waiting.catch(() => {});
    return already.payload;
  }
  return waiting;
}

/** An admin chat command and its system line; a line matching `refused` fails. */
export async function admin(c: GameClient, line: string, expect: RegExp): Promise<string> {
  const reply = await c.command(line);
  if (!expect.test(reply)) throw new Error(`${line}: ${reply}`);
  return reply;
}

/** `/give` as admin, resolving once player:sync shows the items (the reply may come first). */
export async function give(c: GameClient, itemId: string, quantity: number): Promise<void> {
  const count = (inv: ({ itemId: string; quantity: number } | null)[]) =>
    inv.reduce((n, s) => n + (s?.itemId === itemId ? s.quantity : 0), 0);
  const target = count(c.sync.inventory) + quantity;
  const synced = next(c, 'player:sync', (p) => count(p.inventory) >= target);
  await admin(c, `/give ${itemId} ${quantity}`, /./);
  await synced;
}

/** The wire id of an NPC of that manifest id in view, waiting for world:update to show one. */
export async function npcInView(c: GameClient, npcId: string, timeoutMs = 15_000): Promise<string> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const found = [...c.npcs].find(([, id]) => id === npcId)?.[0];
    if (found !== undefined) return found;
    if (Date.now() > until) throw new Error(`no ${npcId} in view`);
    await sleep(50);
  }
}

/** Walks to a tile and resolves on arrival (world:update shows the player there). */
export async function walk(c: GameClient, x: number, z: number, timeoutMs = 30_000): Promise<void> {
  if (c.tile?.x === x && c.tile?.z === z) return;
  const arrived = c.waitFor(
    (m) => m.event === 'world:update' && c.tile?.x === x && c.tile?.z === z,
    timeoutMs,
  );
  c.send('player:move', { x, z });
  await arrived;
}

/** The first inventory slot holding `itemId` in the latest player:sync. */
export function slotOf(c: GameClient, itemId: string): number {
  const slot = (c.sync.inventory as ({ itemId: string } | null)[]).findIndex((s) => s?.itemId === itemId);
  if (slot < 0) throw new Error(`no ${itemId} in the inventory: ${JSON.stringify(c.sync.inventory)}`);
  return slot;
}
