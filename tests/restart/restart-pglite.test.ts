import { describe } from 'vitest';
import { pgliteServerDb } from '../helpers/server-db.ts';
import { restartSuite } from './restart-suite.ts';

describe('every record kind survives a restart through the real save path: PGlite', () => {
  restartSuite(async () => pgliteServerDb('restart'));
});
