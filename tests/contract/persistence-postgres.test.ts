import { describe, it } from 'vitest';
import { postgresAvailable, postgresTestDb, TEST_PG_URL } from '../helpers/db.ts';
import { persistenceContract } from './persistence.contract.ts';

const available = await postgresAvailable();
const inCi = process.env['CI'] === 'true';

if (available) {
  describe('persistence contract: PostgreSQL (fresh schema)', () => {
    persistenceContract(postgresTestDb);
  });
} else if (inCi) {
  describe('persistence contract: PostgreSQL', () => {
    it('needs PostgreSQL in CI', () => {
      throw new Error(`PostgreSQL is required in CI and does not answer at ${TEST_PG_URL}`);
    });
  });
} else {
  // Outside CI without PostgreSQL only (CI fails above): a user's machine need not run a PostgreSQL server.
  console.warn(`SKIPPING PostgreSQL persistence contract: nothing answers at ${TEST_PG_URL}`);
  describe.skip(`persistence contract: PostgreSQL (not answering at ${TEST_PG_URL})`, () => {
    it('skipped', () => {});
  });
}
