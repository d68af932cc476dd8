import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { REPO_ROOT } from '../../lib/repo-root.ts';

/** The project's TypeScript sources and their relative imports, for the architecture rules. */

export interface SourceFile {
  /** Path from the repository root, with forward slashes. */
  rel: string;
  text: string;
  /** Relative imports, resolved to paths from the repository root. */
  imports: string[];
  /** The subset of `imports` loaded at run time: all but `import type` and `export type ... from`. */
  valueImports: string[];
  /** Bare module imports (packages and node: modules). */
  modules: string[];
  /** The subset of `modules` loaded at run time (not `import type`). */
  valueModules: string[];
}

const IMPORT =
  /(?:^|\n)\s*(?:import|export)\s([^'"]*?)from\s*['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)|(?:^|\n)\s*import\s*['"]([^'"]+)['"]/g;

function walk(dir: string): string[] {
  return readdirSync(path.join(REPO_ROOT, dir), { withFileTypes: true }).flatMap((e) => {
    const rel = `${dir}/${e.name}`;
    if (e.isDirectory()) return e.name === 'node_modules' ? [] : walk(rel);
    return e.name.endsWith('.ts') ? [rel] : [];
  });
}

export function sourceFiles(dir: string): SourceFile[] {
  return walk(dir).map((rel) => parseSource(rel, readFileSync(path.join(REPO_ROOT, rel), 'utf8')));
}

/** One file's imports, from its text (also used to build the deliberate violations of rules.test.ts). */
export function parseSource(rel: string, text: string): SourceFile {
  const imports: string[] = [];
  const valueImports: string[] = [];
  const modules: string[] = [];
  const valueModules: string[] = [];
  for (const m of text.matchAll(IMPORT)) {
    const spec = (m[2] ?? m[3] ?? m[4]) as string;
    if (spec.startsWith('.')) {
      const to = path.posix.normalize(path.posix.join(path.posix.dirname(rel), spec));
      imports.push(to);
      if (m[1] === undefined || !/^type\s/.test(m[1])) valueImports.push(to);
    } else {
      modules.push(spec);
      if (m[1] === undefined || !/^type\s/.test(m[1])) valueModules.push(spec);
    }
  }
  return { rel, text, imports, valueImports, modules, valueModules };
}

/** Test files and their helpers are not part of a layer's runtime code. */
export const isTest = (rel: string) => /\.test\.ts$|-scenario-helpers\.ts$/.test(rel);

/** Source text without comments and string contents, so rules match code only. */
export function codeOnly(text: string): string {
  // Removed text keeps its line breaks, so reported line numbers stay those of the file.
  const lines = (m: string) => m.replace(/[^\n]/g, '');
  return text
    .replace(/\/\*[\s\S]*?\*\//g, lines)
    .replace(/\/\/.*$/gm, '')
    .replace(/`(?:\\[\s\S]|[^`\\])*`|'(?:\\.|[^'\\])*'|"(?:\\.|[^"\\])*"/g, (m) => `''${lines(m)}`);
}
