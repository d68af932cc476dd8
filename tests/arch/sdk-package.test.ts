import { readFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../../lib/repo-root.ts';
import { sourceFiles } from './source-files.ts';

/**
 * The SDK (sdk/) is a package of its own, installed outside this repository: its sources import nothing
 * outside sdk/src (the protocol types are generated into it) and no package it does not declare.
 */

const pkg = JSON.parse(readFileSync(path.join(REPO_ROOT, 'sdk/package.json'), 'utf8')) as {
  dependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
};
const declared = new Set([
  ...Object.keys(pkg.dependencies ?? {}),
  ...Object.keys(pkg.peerDependencies ?? {}),
]);
const builtins = new Set(builtinModules);

/** `@scope/name/sub` -> `@scope/name`; `name/sub` -> `name`. */
const packageOf = (spec: string) =>
  spec.startsWith('@') ? spec.split('/').slice(0, 2).join('/') : (spec.split('/')[0] as string);

describe('the SDK package', () => {
  const files = sourceFiles('sdk/src');

  it('has sources', () => {
    expect(files.map((f) => f.rel)).toContain('sdk/src/index.ts');
  });

  it('imports nothing outside sdk/src', () => {
    const bad = files.flatMap((f) =>
      f.imports.filter((i) => !i.startsWith('sdk/src/')).map((i) => `${f.rel} -> ${i}`),
    );
    expect(bad).toEqual([]);
  });

  it('imports only node: modules and the packages it declares', () => {
    const bad = files.flatMap((f) =>
      f.modules
        .filter((m) => !m.startsWith('node:') && !builtins.has(m) && !declared.has(packageOf(m)))
        .map((m) => `${f.rel} -> ${m}`),
    );
    expect(bad).toEqual([]);
  });
});
