import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../../lib/repo-root.ts';

/**
 * The documentation stands on its own: every relative markdown link in docs/ and README.md points at a
 * file of the repository, and no page sends the reader to a document that is not in it ("contract §…",
 * "the specification").
 */

const DOCS_DIR = path.join(REPO_ROOT, 'docs');
const pages = [
  path.join(REPO_ROOT, 'README.md'),
  ...readdirSync(DOCS_DIR)
    .filter((f) => f.endsWith('.md'))
    .map((f) => path.join(DOCS_DIR, f)),
];
const rel = (file: string) => path.relative(REPO_ROOT, file);

/** `[text](target)` links, code spans and fenced blocks left out (they show syntax, not links). */
function links(markdown: string): string[] {
  const text = markdown.replace(/```[\s\S]*?```/g, '').replace(/`[^`\n]*`/g, '');
  return [...text.matchAll(/\[[^\]]*\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)].map((m) => m[1] as string);
}

/** References to documents outside the repository. */
const OUTSIDE = [/contract\s*§/i, /\bthe specification\b/i, /\bspecification's\b/i];

describe('docs/ and README.md', () => {
  it('exist', () => {
    expect(pages.length).toBeGreaterThan(5);
  });

  it.each(pages.map((p) => [rel(p), p]))(
    '%s: every relative link points at an existing file',
    (_name, file) => {
      const broken: string[] = [];
      for (const target of links(readFileSync(file, 'utf8'))) {
        if (/^[a-z][a-z0-9+.-]*:/i.test(target) || target.startsWith('#')) continue; // URLs, anchors
        const filePart = decodeURI(target.split('#')[0] as string);
        if (!existsSync(path.resolve(path.dirname(file), filePart))) broken.push(target);
      }
      expect(broken).toEqual([]);
    },
  );

  it.each(pages.map((p) => [rel(p), p]))('%s: names no document outside the repository', (_name, file) => {
    const found: string[] = [];
    readFileSync(file, 'utf8')
      .split('\n')
      .forEach((line, i) => {
        for (const re of OUTSIDE)
          if (re.test(line)) found.push(`line ${i + 1}: ${line.trim().slice(0, 120)}`);
      });
    expect(found).toEqual([]);
  });

  it('the link check catches a missing file and the reference check catches "contract §"', () => {
    expect(links('see [admin](admin.md) and `[x](not-a-link.md)`')).toEqual(['admin.md']);
    expect(OUTSIDE.some((re) => re.test('as contract §3.1 says'))).toBe(true);
    expect(OUTSIDE.some((re) => re.test('as the specification lists'))).toBe(true);
  });
});

describe('docs/grafana-dashboard.json and docs/prometheus.yml', () => {
  it('query only metrics the server registers', async () => {
    const { createServerMetrics } = await import('../../lib/metrics.ts');
    const { registry } = createServerMetrics();
    const { createTickMetrics } = await import('../../src/tick-metrics.ts');
    createTickMetrics(registry);
    const known = new Set<string>();
    for (const m of await registry.getMetricsAsJSON()) {
      known.add(m.name);
      if (String(m.type) === 'histogram')
        for (const s of ['_bucket', '_sum', '_count']) known.add(`${m.name}${s}`);
    }
    const dashboard = JSON.parse(readFileSync(path.join(DOCS_DIR, 'grafana-dashboard.json'), 'utf8')) as {
      panels: { targets?: { expr: string }[] }[];
    };
    const used = new Set<string>();
    for (const p of dashboard.panels) {
      for (const t of p.targets ?? []) for (const m of t.expr.matchAll(/\bgame_[a-z0-9_]+/g)) used.add(m[0]);
    }
    expect(used.size).toBeGreaterThan(10);
    expect([...used].filter((n) => !known.has(n))).toEqual([]);
    expect(readFileSync(path.join(DOCS_DIR, 'prometheus.yml'), 'utf8')).toContain(
      "targets: ['127.0.0.1:9464']",
    );
  });
});

describe('docs/security.md', () => {
  const review = readFileSync(path.join(DOCS_DIR, 'security.md'), 'utf8');

  it('names only test files that exist', () => {
    const files = new Set(
      [...review.matchAll(/`((?:tests|ecs)\/[\w/.-]+\.ts)`/g)].map((m) => m[1] as string),
    );
    expect(files.size).toBeGreaterThan(10);
    expect([...files].filter((f) => !existsSync(path.join(REPO_ROOT, f)))).toEqual([]);
  });

  it('names only tests that exist in the file it gives (`file` › test name)', () => {
    const missing: string[] = [];
    let checked = 0;
    for (const cell of review.split(/[|;]/)) {
      const m = /`((?:tests|ecs)\/[\w/.-]+\.test\.ts)`((?:\s*,?\s*›\s*[^›]+)+)/.exec(cell);
      if (!m) continue;
      const source = readFileSync(path.join(REPO_ROOT, m[1] as string), 'utf8');
      for (const raw of (m[2] as string).split('›').slice(1)) {
        // "name (a note)" and a trailing comma separate the name from the prose around it.
        const name = raw
          .replace(/,\s*$/, '')
          .replace(/\s*\([^)]*\)\s*$/, '')
          .trim();
        checked++;
        if (!source.includes(name)) missing.push(`${m[1]} › ${name}`);
      }
    }
    expect(checked).toBeGreaterThan(20);
    expect(missing).toEqual([]);
  });
});
