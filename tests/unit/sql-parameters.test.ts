import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type OpenedPersistence, startPersistence } from '../../persistence/open.ts';
import { pgliteTestDb, type TestDb } from '../helpers/db.ts';

/**
 * Values reach SQL only as $n parameters (persistence/repo/*): text that would break out of a quoted
 * literal is stored and found again as plain data, and the tables are untouched.
 */

const HOSTILE = [
  "Robert'); DROP TABLE users; --",
  "x' OR '1'='1",
  'a"; DELETE FROM characters; --',
  '$1 $$ \\ \u0000'.replace('\u0000', ''),
];

let testDb: TestDb;
let p: OpenedPersistence;
const quiet = { info: () => {}, warn: () => {}, error: () => {} };

beforeAll(async () => {
  testDb = pgliteTestDb();
  p = await startPersistence(await testDb.connect(), quiet, 60_000);
}, 180_000);

afterAll(async () => {
  await p?.close();
  await testDb?.destroy();
});

describe('SQL parameters', () => {
  it('stores and finds hostile text as data; the tables survive', async () => {
    for (const name of HOSTILE) {
      const user = await p.port.createAnonymousUser(name);
      expect((await p.port.getUser(user.id))?.name).toBe(name);
    }
    expect(await p.port.findCharacterByName("x' OR '1'='1")).toBeNull();
    // Still there, still readable.
    const again = await p.port.createAnonymousUser('after');
    expect((await p.port.getUser(again.id))?.name).toBe('after');
  });
});
