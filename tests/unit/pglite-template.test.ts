import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  unlinkSync,
  writeFileSync,
} from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openPglite } from '../../persistence/drivers/pglite.ts';
import { preparePgliteDataDir } from '../../persistence/drivers/pglite-template.ts';

/**
 * A new PGlite database is a copy of a prepared, validated template (initdb once, in a worker that
 * ends), never of a template that does not match what it recorded.
 */

const root = mkdtempSync(path.join(os.tmpdir(), 'pglite-template-test-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
const template = path.join(root, 'template');

async function count(dir: string): Promise<number> {
  const db = await openPglite(dir);
  try {
    const rows = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM pg_class');
    return rows[0]?.n ?? 0;
  } finally {
    await db.close();
  }
}

describe('PGlite data directories from a template', () => {
  it('makes the template once, then copies it: each copy is a database of its own', async () => {
    const a = path.join(root, 'a');
    expect(await preparePgliteDataDir(a, template)).toBe('template');
    expect(existsSync(path.join(template, 'template.json'))).toBe(true);
    const b = path.join(root, 'b');
    expect(await preparePgliteDataDir(b, template)).toBe('template');
    // b is written to; a is not changed by it.
    const db = await openPglite(b);
    await db.exec('CREATE TABLE only_in_b (x int)');
    await db.close();
    expect(await count(b)).toBeGreaterThan(await count(a));
  }, 120_000);

  it('a template that no longer matches its marker is made again, not copied', async () => {
    const marker = JSON.parse(readFileSync(path.join(template, 'template.json'), 'utf8')) as {
      files: number;
    };
    unlinkSync(path.join(template, 'PG_VERSION'));
    const c = path.join(root, 'c');
    expect(await preparePgliteDataDir(c, template)).toBe('template');
    expect(existsSync(path.join(template, 'PG_VERSION'))).toBe(true);
    const again = JSON.parse(readFileSync(path.join(template, 'template.json'), 'utf8')) as { files: number };
    expect(again.files).toBe(marker.files);
    expect(await count(c)).toBeGreaterThan(0);
  }, 120_000);

  it('leaves a directory that already holds a database, or anything else, as it is', async () => {
    const a = path.join(root, 'a');
    const before = readdirSync(a).length;
    expect(await preparePgliteDataDir(a, template)).toBe('existing');
    expect(readdirSync(a).length).toBe(before);
    // Not a database and not empty: PGlite is left to say what is wrong with it.
    const other = path.join(root, 'other');
    mkdirSync(other);
    writeFileSync(path.join(other, 'note'), 'x');
    expect(await preparePgliteDataDir(other, template)).toBe('existing');
    expect(readdirSync(other)).toEqual(['note']);
  }, 120_000);
});
