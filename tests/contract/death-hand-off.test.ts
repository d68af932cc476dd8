import { afterEach, describe, expect, it } from 'vitest';
import type { CharacterState, ItemStack } from '../../ecs/core/character-state.ts';
import { type Command, CommandQueue } from '../../ecs/core/commands.ts';
import { stepWorld } from '../../ecs/core/tick.ts';
import type { GameWorld } from '../../ecs/core/world.ts';
import { createGameWorld } from '../../ecs/game.ts';
import { type OpenedPersistence, startPersistence } from '../../persistence/open.ts';
import { handOff } from '../../src/persistence-handoff.ts';
import { schedulerSink } from '../../src/persistence-sink.ts';
import { inventoryOf, makeCharacter } from '../helpers/characters.ts';
import { pgliteTestDb, postgresAvailable, postgresTestDb, TEST_PG_URL, type TestDb } from '../helpers/db.ts';
import { testContent } from '../helpers/sim-content.ts';

/**
 * A death in a tick that also moved the dying player's items, through the production hand-off, the save
 * scheduler and a real database: the death locks are written (none refused as stale, because the items of
 * that tick are saved first), and the items the character holds plus those its locks hold are exactly
 * what it had.
 */

const START: Record<number, ItemStack> = {
  0: { itemId: 'logs', quantity: 1 },
  1: { itemId: 'feather', quantity: 12 },
  2: { itemId: 'bronze_sword', quantity: 1 },
  3: { itemId: 'bones', quantity: 1 },
  4: { itemId: 'shrimp', quantity: 1 },
};

function totals(states: readonly { inventory: (ItemStack | null)[] }[], more: ItemStack[][]): string[] {
  const m = new Map<string, number>();
  const add = (s: ItemStack | null) => {
    if (s) m.set(s.itemId, (m.get(s.itemId) ?? 0) + s.quantity);
  };
  for (const st of states) st.inventory.forEach(add);
  for (const l of more) l.forEach(add);
  return [...m].map(([k, v]) => `${k}:${v}`).sort();
}

const available = await postgresAvailable();
const drivers: [string, () => TestDb][] = [['PGlite', pgliteTestDb]];
if (available) drivers.push(['PostgreSQL', postgresTestDb]);
else if (process.env['CI'] === 'true') {
  it('needs PostgreSQL in CI', () => {
    throw new Error(`PostgreSQL is required in CI and does not answer at ${TEST_PG_URL}`);
  });
} else console.warn(`death hand-off: PostgreSQL not answering at ${TEST_PG_URL}; PGlite only`);

describe.each(drivers)('a death in a tick that moved the items (%s)', (_name, make) => {
  let db: TestDb | undefined;
  let persistence: OpenedPersistence | undefined;
  afterEach(async () => {
    await persistence?.close();
    await db?.destroy();
  });

  it('its death locks are written and every item is in the character or a lock', async () => {
    db = make();
    const problems: string[] = [];
    const log = {
      info: () => {},
      warn: (o: object, m?: string) => void problems.push(`${m} ${JSON.stringify(o)}`),
      error: (o: object, m?: string) => void problems.push(`${m} ${JSON.stringify(o)}`),
    };
    persistence = await startPersistence(await db.connect(), log, 60_000);
    const { port, saves } = persistence;
    const account = (await port.createAnonymousUser('dier')).id;
    const created = await port.createCharacter(
      makeCharacter(account, 'Dier', { position: { x: 40, y: 0, z: 60 }, inventory: inventoryOf(START) }),
    );
    const start = totals([created], []);
    const world: GameWorld = createGameWorld({ content: testContent(), seed: 1 });
    const sink = schedulerSink({ port, saves }, log);
    const queue = new CommandQueue();
    const tick = (cmds: Command[]) => {
      stepWorld(world, cmds, Date.now());
      handOff(world, sink, queue, log);
    };
    const state = (await port.loadCharacter(created.id)) as CharacterState;
    const id = state.id;
    tick([{ type: 'join', characterId: id, accountId: account, state }]);
    // One tick: the items move, then the killing blow, then more moves (refused: dead).
    tick([
      { type: 'inventoryMove', characterId: id, from: 0, to: 10 },
      { type: 'inventoryMove', characterId: id, from: 1, to: 0 },
      { type: 'damage', characterId: id, amount: 500 },
      { type: 'inventoryMove', characterId: id, from: 2, to: 11 },
    ]);
    await saves.flushAll();
    expect(world.players.get(id)?.state.health).toBe(100);
    expect(problems).toEqual([]);
    // What the database holds is what the world holds: the kept items, slot for slot.
    const saved = (await port.loadCharacter(id)) as CharacterState;
    expect(saved.inventory).toEqual(world.players.get(id)?.state.inventory);
    // The dropped stacks are in the locks: recovery (as at a restart) puts them in the bank, and then the
    // character holds exactly what it started with.
    const dropped = world.persist.deathLocks.length;
    expect(dropped).toBeGreaterThan(0);
    expect(await port.recoverDeathLocks()).toBe(dropped);
    const recovered = (await port.loadCharacter(id)) as CharacterState;
    expect(totals([recovered], [recovered.bank])).toEqual(start);
    // A fresh PGlite database takes seconds to open on a busy machine.
  }, 120_000);
});
