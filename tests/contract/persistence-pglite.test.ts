import { describe } from 'vitest';
import { pgliteTestDb } from '../helpers/db.ts';
import { persistenceContract } from './persistence.contract.ts';

describe('persistence contract: PGlite (worker thread, temp dir)', () => {
  persistenceContract(pgliteTestDb);
});
