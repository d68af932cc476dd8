import type { Scenario } from '../../../tests/scenario/harness.ts';
import type { CharacterState } from '../../core/character-state.ts';
import type { ItemTxRequest, PersistOutbox } from '../../core/persist-intents.ts';

/**
 * Test doubles around a Scenario: a persistence stand-in that records every tick's outbox and answers
 * item transactions when the test says so, and short-hands to open a trade.
 */
export class FakePersistence {
  /** Transactions handed over and not yet answered, oldest first. */
  readonly open: ItemTxRequest[] = [];
  readonly audits: PersistOutbox['tradeAudits'] = [];
  readonly deathLocks: PersistOutbox['deathLocks'] = [];
  readonly left: CharacterState[] = [];
  readonly itemsChanged: string[][] = [];

  constructor(private readonly s: Scenario) {
    s.afterTick.push((world) => {
      this.open.push(...world.persist.transactions);
      this.audits.push(...world.persist.tradeAudits);
      this.deathLocks.push(...world.persist.deathLocks);
      this.left.push(...world.persist.left);
      this.itemsChanged.push([...world.persist.itemsChanged]);
    });
  }

  /** Queue the outcome of one open transaction (applied at the next step). */
  answer(tx: ItemTxRequest, ok: boolean, reason?: string): void {
    this.open.splice(this.open.indexOf(tx), 1);
    this.s.push({ type: 'txResult', characterId: tx.requesterId, txId: tx.id, ok, reason });
  }

  /** Answer every open transaction and step one tick. */
  settle(ok = true): void {
    for (const tx of [...this.open]) this.answer(tx, ok, ok ? undefined : 'stale');
    this.s.step();
  }

  last(): ItemTxRequest {
    const tx = this.open[this.open.length - 1];
    if (!tx) throw new Error('no open transaction');
    return tx;
  }
}

/** Two players next to each other at the spawn. */
export function twoPlayers(
  s: Scenario,
  a: Parameters<Scenario['addPlayer']>[0] = { name: 'Alice' },
  b: Parameters<Scenario['addPlayer']>[0] = { name: 'Bob' },
): [string, string] {
  const spawn = s.world.content.spawn;
  const ida = s.addPlayer({ x: spawn.x, z: spawn.z, ...a });
  const idb = s.addPlayer({ x: spawn.x + 1, z: spawn.z, ...b });
  return [ida, idb];
}

/** Request and accept: the trade is on the offer screen. Returns its id. */
export function openTrade(s: Scenario, a: string, b: string): string {
  s.push({ type: 'tradeRequest', characterId: a, targetPlayerId: b });
  s.step();
  const incoming = s.lastEvent(b, 'tradeIncoming');
  if (!incoming) throw new Error('no tradeIncoming');
  const tradeId = incoming.data.tradeId;
  s.push({ type: 'tradeRespond', characterId: b, tradeId, accept: true });
  s.step();
  return tradeId;
}

/** Both accept (screen 1, then screen 2): the trade is completing with its transaction handed over. */
export function acceptBoth(s: Scenario, tradeId: string, a: string, b: string): void {
  s.push({ type: 'tradeAccept', characterId: a, tradeId });
  s.push({ type: 'tradeAccept', characterId: b, tradeId });
  s.step();
}

/** All item ids and quantities a character state holds (inventory, equipment, bank, coins). */
export function totals(
  state: Pick<CharacterState, 'inventory' | 'equipment' | 'bank' | 'coins'>,
): Map<string, number> {
  const m = new Map<string, number>();
  const add = (id: string, q: number) => m.set(id, (m.get(id) ?? 0) + q);
  for (const s of state.inventory) if (s) add(s.itemId, s.quantity);
  for (const s of Object.values(state.equipment)) if (s) add(s.itemId, s.quantity);
  for (const s of state.bank) add(s.itemId, s.quantity);
  if (state.coins > 0) add('coins', state.coins);
  return m;
}

/** The codes of every `error` or `tradeError` a player got, in order. */
export function codes(s: Scenario, characterId: string, kind: 'error' | 'tradeError'): string[] {
  return s.eventsFor(characterId, kind).map((e) => (e.data as { code: string }).code);
}
