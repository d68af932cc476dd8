import { randomUUID } from 'node:crypto';
import type { CharacterState } from '../../ecs/core/character-state.ts';
import { startPersistence } from '../../persistence/open.ts';
import type { Holdings, ItemTransaction, PersistencePort } from '../../persistence/port.ts';
import { openCrashChildDb } from '../helpers/crash-child.ts';

/**
 * Child process of the crash test: opens persistence on the given database (migrations and death-lock
 * recovery run as at server start), then moves items between the seeded characters with concurrent
 * item transactions until it is killed. Prints `ready` once started and `committed N` as it goes.
 * Env: CRASH_PGLITE_DIR, or CRASH_PG_URL + CRASH_PG_SCHEMA; CRASH_IDS (comma-separated character ids).
 */

const { ids, db } = await openCrashChildDb();
const quiet = { info: () => {}, warn: () => {}, error: (o: object, m?: string) => console.error(m, o) };
const { port } = await startPersistence(db, quiet, 60_000);
console.log('ready');

const pick = <T>(xs: readonly T[]): T => xs[Math.floor(Math.random() * xs.length)] as T;
const holdings = (s: CharacterState): Holdings => ({
  inventory: structuredClone(s.inventory),
  coins: s.coins,
  bank: structuredClone(s.bank),
});
const occupied = (h: Holdings) => h.inventory.flatMap((s, i) => (s ? [i] : []));
const empty = (h: Holdings) => h.inventory.flatMap((s, i) => (s ? [] : [i]));

/** One random move between two characters (or within one), as the simulation would submit it. */
async function oneMove(p: PersistencePort): Promise<boolean> {
  const [a, b] = [pick(ids), pick(ids)];
  const sa = await p.loadCharacter(a);
  const sb = a === b ? sa : await p.loadCharacter(b);
  if (!sa || !sb) return false;
  const ha = holdings(sa);
  const kind = Math.random();
  if (a !== b && kind < 0.5) {
    const hb = holdings(sb);
    const after = { a: holdings(sa), b: holdings(sb) };
    const from = occupied(ha);
    const to = empty(hb);
    if (from.length > 0 && to.length > 0) {
      const slot = pick(from);
      after.b.inventory[pick(to)] = after.a.inventory[slot] ?? null;
      after.a.inventory[slot] = null;
    }
    const coins = Math.min(hb.coins, Math.floor(Math.random() * 50));
    after.b.coins -= coins;
    after.a.coins += coins;
    const tx: ItemTransaction = {
      id: randomUUID(),
      kind: 'trade',
      conserve: true,
      changes: [
        { characterId: a, before: ha, after: after.a },
        { characterId: b, before: hb, after: after.b },
      ],
    };
    return (await p.applyItemTransaction(tx)).ok;
  }
  const after = holdings(sa);
  if (kind < 0.7) {
    const from = occupied(ha);
    if (from.length === 0) return false;
    const slot = pick(from);
    const stack = after.inventory[slot];
    if (!stack) return false;
    after.inventory[slot] = null;
    const banked = after.bank.find((s) => s.itemId === stack.itemId);
    if (banked) banked.quantity += stack.quantity;
    else after.bank.push({ ...stack });
    const tx: ItemTransaction = {
      id: randomUUID(),
      kind: 'bank_deposit',
      conserve: true,
      changes: [{ characterId: a, before: ha, after }],
    };
    return (await p.applyItemTransaction(tx)).ok;
  }
  if (kind < 0.9) {
    const to = empty(ha);
    const stack = after.bank.shift();
    if (!stack || to.length === 0) return false;
    after.inventory[pick(to)] = stack;
    const tx: ItemTransaction = {
      id: randomUUID(),
      kind: 'bank_withdraw',
      conserve: true,
      changes: [{ characterId: a, before: ha, after }],
    };
    return (await p.applyItemTransaction(tx)).ok;
  }
  // Death: the lock takes an inventory stack and some coins; half the time the owner claims them back.
  const from = occupied(ha);
  if (from.length === 0) return false;
  const slot = pick(from);
  const stack = after.inventory[slot];
  if (!stack) return false;
  after.inventory[slot] = null;
  const coins = Math.min(after.coins, 10);
  after.coins -= coins;
  const items = [{ ...stack }, ...(coins > 0 ? [{ itemId: 'coins', quantity: coins }] : [])];
  const lockId = randomUUID();
  const res = await p.createDeathLock({
    id: lockId,
    characterId: a,
    position: { x: 0, y: 0, z: 0 },
    items,
    before: ha,
    after,
  });
  if (!res.ok || Math.random() < 0.5) return res.ok;
  const back = holdings({ ...sa, ...after } as CharacterState);
  back.inventory[slot] = { ...stack };
  back.coins += coins;
  return (await p.resolveDeathLock(lockId, { characterId: a, before: after, after: back })).ok;
}

let committed = 0;
async function worker(): Promise<void> {
  for (;;) {
    if (await oneMove(port)) {
      committed++;
      if (committed % 10 === 0) console.log(`committed ${committed}`);
    }
  }
}
await Promise.all([worker(), worker(), worker(), worker()]);
