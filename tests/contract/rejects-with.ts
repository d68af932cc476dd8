import { expect } from 'vitest';

/** Awaits a promise that must reject with a database error of this SQLSTATE (a constraint's code). */
export async function rejectsWith(p: Promise<unknown>, sqlState: string): Promise<void> {
  const err = await p.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err, `expected SQLSTATE ${sqlState}`).toBeDefined();
  expect((err as { code?: string }).code).toBe(sqlState);
}
