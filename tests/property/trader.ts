import type { Command } from '../../ecs/core/commands.ts';
import { populateWorld } from '../../ecs/core/populate.ts';
import { stepWorld } from '../../ecs/core/tick.ts';
import { GROUND_ITEMS } from '../../ecs/features/ground-items/index.ts';
import { TRADES, tradeIdOf } from '../../ecs/features/trade/index.ts';
import { createGameWorld } from '../../ecs/game.ts';
import { startPersistence } from '../../persistence/open.ts';
import { handOff } from '../../src/persistence-handoff.ts';
import { schedulerSink } from '../../src/persistence-sink.ts';
import { openCrashChildDb } from '../helpers/crash-child.ts';
import { testContent } from '../helpers/sim-content.ts';

/**
 * Child process of trade-crash.test.ts: the simulation with the real persistence, six players next to a
 * bank trading, banking, dying (death locks), picking up and reconnecting at random until SIGKILLed.
 * Prints `ready`, then `completed N` as trades complete.
 * Env: CRASH_PGLITE_DIR, or CRASH_PG_URL + CRASH_PG_SCHEMA; CRASH_IDS (comma-separated character ids).
 */

const { ids, db } = await openCrashChildDb();
const quiet = { info: () => {}, warn: () => {}, error: (o: object, m?: string) => console.error(m, o) };
const { port, saves } = await startPersistence(db, quiet, 1_000);
// The production hand-off (src/), so this crash test exercises the ordering the server relies on.
const log = { error: (obj: object, msg?: string) => console.error(msg, obj) };
const sink = schedulerSink({ port, saves }, log);
// tickMs 1: the 180 s despawn of death piles (a legitimate loss) never comes within a run.
const world = createGameWorld({ content: testContent({ npcSpawns: [] }), seed: 1, tickMs: 1 });
populateWorld(world); // the bank booth
let queue: Command[] = [];
const enqueue = (c: Command) => queue.push(c);
const HOME: [number, number][] = [
  [98, 100],
  [99, 100],
  [98, 101],
  [99, 101],
  [98, 99],
  [99, 99],
];

/**
 * Characters with a join under way: from the load until the tick that applies the join command. Like the
 * server's login lane (net/session/ws-app.ts), one join at a time per character and only while it is out
 * of the world: a second join loading meanwhile could read the database while the character plays (a
 * death's locks still queued), and if it left before that join command applied, it would come back with
 * stale holdings, which then duplicate or lose items (a death lock refused as stale, a bank tx refused
 * and its stale `before` saved).
 */
const joining = new Set<string>();
async function join(id: string): Promise<void> {
  if (joining.has(id)) return;
  joining.add(id);
  let state: Awaited<ReturnType<typeof port.loadCharacter>>;
  try {
    await saves.waitForPending(id);
    state = await port.loadCharacter(id);
    if (!state) throw new Error(`no character ${id}`);
  } catch (err) {
    joining.delete(id);
    throw err;
  }
  enqueue({ type: 'join', characterId: id, accountId: state.accountId, state });
  enqueue({ type: 'setAdmin', characterId: id });
}
for (const id of ids) await join(id);
console.log('ready');

const pick = <T>(xs: readonly T[]): T => xs[Math.floor(Math.random() * xs.length)] as T;
const slot = () => Math.floor(Math.random() * 8);

function randomCommands(): void {
  const i = Math.floor(Math.random() * ids.length);
  const me = ids[i] as string;
  const p = world.players.get(me);
  if (!p) {
    if (Math.random() < 0.2) void join(me);
    return;
  }
  const r = Math.random();
  if (r < 0.25) {
    const other = pick(ids.filter((x) => x !== me));
    const o = world.players.get(other);
    if (!o || tradeIdOf(world, me) || tradeIdOf(world, other)) return;
    // A whole deal at once: the commands apply in order within the next ticks.
    enqueue({ type: 'tradeRequest', characterId: me, targetPlayerId: other });
    const next = `trade-${world.get(TRADES).made + 1}`;
    enqueue({ type: 'tradeRespond', characterId: other, tradeId: next, accept: true });
    enqueue({ type: 'tradeAddItem', characterId: me, tradeId: next, inventorySlot: slot() });
    enqueue({ type: 'tradeAddItem', characterId: other, tradeId: next, inventorySlot: slot() });
    enqueue({
      type: 'tradeSetCoins',
      characterId: other,
      tradeId: next,
      coins: Math.floor(Math.random() * 30),
    });
    for (let k = 0; k < 2; k++) {
      enqueue({ type: 'tradeAccept', characterId: me, tradeId: next });
      enqueue({ type: 'tradeAccept', characterId: other, tradeId: next });
    }
  } else if (r < 0.45) {
    enqueue({ type: 'bankDeposit', characterId: me, slot: slot() });
  } else if (r < 0.6) {
    const banked = p.state.bank[0];
    if (banked) enqueue({ type: 'bankWithdraw', characterId: me, itemId: banked.itemId, quantity: 1 });
  } else if (r < 0.65) {
    enqueue({ type: 'damage', characterId: me, amount: 1000 });
  } else if (r < 0.8) {
    const [x, z] = HOME[i] as [number, number];
    enqueue({ type: 'chatCommand', characterId: me, name: 'tp', args: [String(x), String(z)] });
    // Death piles lie at home tiles: pick one up (through its death lock).
    const pile = [...world.get(GROUND_ITEMS).byEid.values()].find(
      (g) => g.ownerId === null || g.ownerId === me,
    );
    const wire = pile ? world.wireIds[pile.eid] : undefined;
    if (wire) enqueue({ type: 'action', characterId: me, action: 'pickup', targetId: wire });
  } else if (r < 0.85) {
    enqueue({ type: 'leave', characterId: me, reason: 'disconnect' });
  }
}

let completed = 0;
for (;;) {
  for (let k = 0; k < 3; k++) randomCommands();
  const cmds = queue;
  queue = [];
  stepWorld(world, cmds, Date.now());
  for (const c of cmds) if (c.type === 'join') joining.delete(c.characterId);
  for (const e of world.events) if (e.kind === 'tradeCompleted') completed += 1;
  handOff(world, sink, { push: enqueue }, log);
  if (completed > 0) console.log(`completed ${completed}`);
  await new Promise((r) => setTimeout(r, 5));
}
