import { describe, expect, it } from 'vitest';
import { errorReply } from '../../net/http/reply.ts';
import { HttpError } from '../../net/http/types.ts';
import { PgliteError } from '../../persistence/drivers/pglite.ts';
import { DatabaseUnavailableError, isDatabaseUnavailable } from '../../persistence/sql.ts';

const coded = (code: string) => Object.assign(new Error(`failed: ${code}`), { code });

describe('errorReply: the one mapping of handler errors to problems', () => {
  it.each([
    ['postgres.js connection closed', coded('CONNECTION_CLOSED')],
    ['socket reset', coded('ECONNRESET')],
    ['connection refused', coded('ECONNREFUSED')],
    ['SQLSTATE 08006 connection failure', new PgliteError('connection failure', '08006')],
    ['SQLSTATE 57P01 admin shutdown', coded('57P01')],
    ['SQLSTATE 53300 too many connections', coded('53300')],
    ['a wrapped outage', new DatabaseUnavailableError(coded('CONNECT_TIMEOUT'))],
  ])('%s: 503 DATABASE_UNAVAILABLE with Retry-After, nothing internal in the body', (_, err) => {
    expect(isDatabaseUnavailable(err)).toBe(true);
    const r = errorReply(err);
    expect(r.status).toBe(503);
    expect(r.headers).toMatchObject({ 'Content-Type': 'application/problem+json', 'Retry-After': '5' });
    expect(JSON.parse(r.body as string)).toMatchObject({ status: 503, code: 'DATABASE_UNAVAILABLE' });
    expect(r.body).not.toContain((err as Error).message);
    expect(r.error).toBe(err);
  });

  it.each([
    ['a unique violation', new PgliteError('duplicate key', '23505')],
    ['a syntax error', coded('42601')],
    ['a plain bug', new TypeError('x is undefined')],
  ])('%s stays a bare 500', (_, err) => {
    expect(isDatabaseUnavailable(err)).toBe(false);
    expect(errorReply(err).status).toBe(500);
  });

  it('an HttpError is answered as thrown', () => {
    expect(errorReply(new HttpError(409, 'CONFLICT', 'in the world')).status).toBe(409);
  });
});
