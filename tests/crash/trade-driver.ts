import type { GameClient, Msg } from './game-client.ts';

/**
 * Drives trades and bank moves between players of the real server over WebSocket, the way a client
 * would: request → accept → offers → accept ×2 → accept ×2 → tradeCompleted. Any refusal ends the
 * attempt (cancelled); a closed socket (the server was killed) ends the loop.
 */

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function failure(m: Msg, tradeId: string | undefined): boolean {
  if (m.event === 'error') return true;
  if (m.event === 'tradeCancelled') return tradeId === undefined || m.payload.tradeId === tradeId;
  if (m.event === 'tradeError') return m.payload.tradeId === undefined || m.payload.tradeId === tradeId;
  return false;
}

/** The next message `ok` accepts; rejects on a refusal of this trade, a timeout or a closed socket. */
async function expectMsg(
  c: GameClient,
  ok: (m: Msg) => boolean,
  tradeId: () => string | undefined,
  timeoutMs = 5000,
): Promise<Msg> {
  const m = await c.waitFor((x) => ok(x) || failure(x, tradeId()), timeoutMs);
  if (!ok(m)) throw new Error(`${m.event} ${JSON.stringify(m.payload)}`);
  return m;
}

const occupiedSlots = (c: GameClient): number[] =>
  ((c.sync?.inventory ?? []) as unknown[]).flatMap((s, i) => (s ? [i] : []));
const pick = <T>(xs: readonly T[]): T | undefined => xs[Math.floor(Math.random() * xs.length)];

/** One full trade; resolves true when both players saw tradeCompleted. */
export async function tradeOnce(a: GameClient, b: GameClient, stats?: LoopStats): Promise<boolean> {
  let tradeId: string | undefined;
  const id = () => tradeId;
  try {
    const incoming = expectMsg(b, (m) => m.event === 'tradeIncoming' && m.payload.fromPlayerId === a.id, id);
    const startedA = expectMsg(a, (m) => m.event === 'tradeStarted', id);
    startedA.catch(() => {});
    a.send('tradeRequest', { targetPlayerId: b.id });
    tradeId = (await incoming).payload.tradeId as string;
    const startedB = expectMsg(b, (m) => m.event === 'tradeStarted', id);
    b.send('tradeRequestRespond', { tradeId, accept: true });
    await Promise.all([startedA, startedB]);

    const slotA = pick(occupiedSlots(a));
    const slotB = pick(occupiedSlots(b));
    const coinsA = Math.min(a.sync?.coins ?? 0, Math.floor(Math.random() * 40));
    const wantA = slotA === undefined ? 0 : 1;
    const wantB = slotB === undefined ? 0 : 1;
    const offered = expectMsg(
      a,
      (m) =>
        m.event === 'tradeUpdated' &&
        m.payload.myOffer.items.length === wantA &&
        m.payload.myOffer.coins === coinsA &&
        m.payload.theirOffer.items.length === wantB,
      id,
    );
    offered.catch(() => {});
    if (slotA !== undefined) a.send('tradeAddItem', { tradeId, inventorySlot: slotA });
    if (coinsA > 0) a.send('tradeAddItem', { tradeId, coins: coinsA });
    if (slotB !== undefined) b.send('tradeAddItem', { tradeId, inventorySlot: slotB });
    if (wantA + wantB === 0 && coinsA === 0) throw new Error('nothing to offer');
    await offered;

    const confirmA = expectMsg(a, (m) => m.event === 'tradeConfirmScreen', id);
    const confirmB = expectMsg(b, (m) => m.event === 'tradeConfirmScreen', id);
    confirmA.catch(() => {});
    a.send('tradeAccept', { tradeId });
    b.send('tradeAccept', { tradeId });
    await Promise.all([confirmA, confirmB]);

    const doneA = expectMsg(
      a,
      (m) => m.event === 'tradeCompleted' && m.payload.tradeId === tradeId,
      id,
      10_000,
    );
    const doneB = expectMsg(
      b,
      (m) => m.event === 'tradeCompleted' && m.payload.tradeId === tradeId,
      id,
      10_000,
    );
    doneA.catch(() => {});
    a.send('tradeAccept', { tradeId });
    b.send('tradeAccept', { tradeId });
    // From the second accepts to tradeCompleted the trade is (about to be) in its database write.
    if (stats) stats.completing++;
    try {
      await Promise.all([doneA, doneB]);
    } finally {
      if (stats) stats.completing--;
    }
    return true;
  } catch (err) {
    if (a.closed || b.closed) throw err;
    if (tradeId) a.send('tradeCancel', { tradeId });
    await sleep(100);
    return false;
  }
}

/** Deposits a random inventory slot and withdraws one of that item again; true when both committed. */
export async function bankOnce(c: GameClient): Promise<boolean> {
  const slot = pick(occupiedSlots(c));
  const stack = slot === undefined ? null : c.sync?.inventory[slot];
  if (slot === undefined || !stack) return false;
  const none = () => undefined;
  try {
    const deposited = expectMsg(c, (m) => m.event === 'bank:update', none);
    c.send('bank:deposit', { slot });
    await deposited;
    const withdrawn = expectMsg(c, (m) => m.event === 'bank:update', none);
    c.send('bank:withdraw', { itemId: stack.itemId, quantity: 1 });
    await withdrawn;
    return true;
  } catch (err) {
    if (c.closed) throw err;
    await sleep(100);
    return false;
  }
}

export interface LoopStats {
  trades: number;
  banks: number;
  /** Trades between the final accepts and tradeCompleted right now. */
  completing: number;
}

/** Trades (and sometimes banks) between a and b until a socket closes; never rejects. */
export async function tradeLoop(a: GameClient, b: GameClient, stats: LoopStats): Promise<void> {
  try {
    while (!a.closed && !b.closed) {
      if (await tradeOnce(a, b, stats)) stats.trades++;
      // Let the post-trade player:sync arrive so the next offer picks current slots.
      await sleep(120);
      if (Math.random() < 0.3 && (await bankOnce(Math.random() < 0.5 ? a : b))) stats.banks++;
    }
  } catch {
    // The server was killed mid-step: the loop ends here and restarts with the server.
  }
}
