import path from 'node:path';
import { codeOnly, type SourceFile } from './source-files.ts';

/**
 * The architecture rules as pure functions over scanned sources: each returns the offending files (and
 * lines), empty when the rule holds. architecture.test.ts runs them on the tree; rules.test.ts runs each
 * on a deliberate violation, so "this rule catches a violation" is a permanent test.
 */

/** Strongly connected components with more than one node (or a self-loop): Tarjan's algorithm. */
export function cycles(edges: ReadonlyMap<string, readonly string[]>): string[][] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (v: string): void => {
    index.set(v, next);
    low.set(v, next);
    next += 1;
    stack.push(v);
    onStack.add(v);
    for (const w of edges.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v) as number, low.get(w) as number));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v) as number, index.get(w) as number));
    }
    if (low.get(v) !== index.get(v)) return;
    const scc: string[] = [];
    let w: string;
    do {
      w = stack.pop() as string;
      onStack.delete(w);
      scc.push(w);
    } while (w !== v);
    if (scc.length > 1 || (edges.get(v) ?? []).includes(v)) found.push(scc.sort());
  };
  for (const v of [...edges.keys()].sort()) if (!index.has(v)) visit(v);
  return found;
}

const under = (rel: string, dirs: readonly string[]) => dirs.some((d) => rel.startsWith(`${d}/`));

/** Import loops between files of the given folders (type imports count: they tie the files together too). */
export function fileCycles(files: readonly SourceFile[], dirs: readonly string[]): string[] {
  const edges = new Map<string, string[]>();
  for (const f of files) {
    if (!under(f.rel, dirs)) continue;
    edges.set(
      f.rel,
      f.imports.filter((i) => under(i, dirs)),
    );
  }
  return cycles(edges).map((c) => c.join(' <-> '));
}

/**
 * Import loops between the sub-folders of a layer (net/http and net/thread, persistence/repo and
 * persistence/slices): a folder is a unit of meaning, and a loop makes two folders one. Files directly
 * in the layer count as their own unit.
 */
export function folderCycles(files: readonly SourceFile[], layer: string): string[] {
  const unit = (rel: string) => {
    const parts = rel.slice(layer.length + 1).split('/');
    return parts.length > 1 ? `${layer}/${parts[0]}/` : rel;
  };
  const edges = new Map<string, Set<string>>();
  for (const f of files) {
    if (!f.rel.startsWith(`${layer}/`)) continue;
    const from = unit(f.rel);
    const out = edges.get(from) ?? new Set<string>();
    for (const i of f.imports) if (i.startsWith(`${layer}/`) && unit(i) !== from) out.add(unit(i));
    edges.set(from, out);
  }
  return cycles(new Map([...edges].map(([k, v]) => [k, [...v]]))).map((c) => c.join(' <-> '));
}

/** Imports from files under `from` into files under `into` (a layer that may not know another). */
export function forbiddenImports(
  files: readonly SourceFile[],
  from: readonly string[],
  into: readonly string[],
): string[] {
  return files
    .filter((f) => under(f.rel, from))
    .flatMap((f) =>
      f.imports.filter((i) => under(i, into) || into.includes(i)).map((i) => `${f.rel} -> ${i}`),
    );
}

/**
 * A face: what an outer layer reads of a feature (its wire, content or persistence shapes, zod schemas),
 * declared in the feature's folder as wire.ts, content.ts or persist.ts (a long one split into
 * content-<part>.ts). The kit of faces sits in ecs/core/faces/; the core's own wire face is ecs/core/wire.ts.
 */
export const isFaceFile = (rel: string): boolean =>
  rel.startsWith('ecs/core/faces/') ||
  rel === 'ecs/core/wire.ts' ||
  /^ecs\/features\/[^/]+\/(wire|content|persist)(-[a-z0-9-]+)?\.ts$/.test(rel);

/** Where a feature attaches its faces: its feature.ts (the core's: players.ts). */
const isRegistration = (rel: string): boolean =>
  rel === 'ecs/core/players.ts' || /^ecs\/features\/[^/]+\/feature\.ts$/.test(rel);

/**
 * ecs/ imports no outer layer, and no package but bitecs; zod only in face files (a simulation file may
 * name a zod type: `import type { z }` is erased).
 */
export function ecsImportsOnlyBitecs(files: readonly SourceFile[]): string[] {
  return files
    .filter((f) => f.rel.startsWith('ecs/'))
    .flatMap((f) => [
      ...f.imports.filter((i) => /^(net|persistence|src|lib|world)\//.test(i)).map((i) => `${f.rel} -> ${i}`),
      ...f.modules.filter((m) => m !== 'bitecs' && m !== 'zod').map((m) => `${f.rel} -> ${m}`),
      ...f.valueModules
        .filter((m) => m === 'zod' && !isFaceFile(f.rel))
        .map((m) => `${f.rel} -> ${m} (zod is for face files only)`),
    ]);
}

/**
 * Simulation files import a face only to name a type (`import type`): nothing a tick runs loads a schema.
 * Only a feature's registration (feature.ts; core's players.ts) value-imports its faces, to attach them;
 * a face never imports its own folder's index.ts (that would close a loop through feature.ts).
 */
export function faceImports(files: readonly SourceFile[]): string[] {
  return files
    .filter((f) => f.rel.startsWith('ecs/'))
    .flatMap((f) => {
      const own = path.posix.dirname(f.rel);
      return [
        ...(isFaceFile(f.rel) || isRegistration(f.rel) ? [] : f.valueImports.filter(isFaceFile)).map(
          (i) => `${f.rel} -> ${i} (import type only)`,
        ),
        ...(isFaceFile(f.rel) ? f.imports.filter((i) => i === `${own}/index.ts`) : []).map(
          (i) => `${f.rel} -> ${i} (a face imports its folder's files, not its index.ts)`,
        ),
      ];
    });
}

/** Lines of `files` whose code (comments and strings removed) matches `pattern`. */
export function codeLines(
  files: readonly SourceFile[],
  match: RegExp | ((line: string) => boolean),
): string[] {
  const hit = typeof match === 'function' ? match : (line: string) => match.test(line);
  return files.flatMap((f) =>
    codeOnly(f.text)
      .split('\n')
      .flatMap((line, i) => (hit(line) ? [`${f.rel}:${i + 1}: ${line.trim()}`] : [])),
  );
}

/** The Math functions the simulation may call: pure, and the same on every machine. */
export const ALLOWED_MATH = [
  'floor',
  'ceil',
  'round',
  'trunc',
  'min',
  'max',
  'abs',
  'sign',
  'sqrt',
  'hypot',
  'pow',
  'log',
  'exp',
  'imul',
  'PI',
] as const;

/**
 * ecs/ is synchronous and deterministic. `Math` only as `Math.<allowed>` (so neither `Math.random` nor an
 * alias of it: `Math['random']`, `const { random } = Math`, `const m = Math`); no global escape hatch
 * (`globalThis`, `Reflect`, `eval`, `Function(`), no clock, crypto, timers, process, require or dynamic
 * import; no async code.
 */
export function nondeterminism(files: readonly SourceFile[]): string[] {
  const math = new RegExp(`\\bMath\\b(?!\\s*\\.\\s*(?:${ALLOWED_MATH.join('|')})\\b)`);
  const banned =
    /\basync\b|\bawait\b|\bDate\b|\bperformance\b|\bprocess\b|\bcrypto\b|\bglobalThis\b|\bReflect\b|\beval\b|\bFunction\s*\(|\brequire\s*\(|\bimport\s*\(|\bsetTimeout\b|\bsetInterval\b|\bsetImmediate\b|\bqueueMicrotask\b/;
  return codeLines(
    files.filter((f) => f.rel.startsWith('ecs/')),
    (line) => math.test(line) || banned.test(line),
  );
}

/** ecs/core/ knows no feature. */
export function coreKnowsNoFeature(files: readonly SourceFile[]): string[] {
  return forbiddenImports(files, ['ecs/core'], ['ecs/features']);
}

/**
 * The feature list and the game's world (ecs/schedule.ts, ecs/game.ts) sit above core and the features:
 * a feature reaching PLAN or FEATURES would depend on every other feature.
 */
export function scheduleFromBelow(files: readonly SourceFile[]): string[] {
  return forbiddenImports(files, ['ecs/core', 'ecs/features'], ['ecs/schedule.ts', 'ecs/game.ts']);
}

/** Outer layers reach a feature only through its index.ts (tests and benchmarks may reach internals). */
export function featureInternalsFromOutside(files: readonly SourceFile[]): string[] {
  return files
    .filter((f) => !f.rel.startsWith('ecs/') && !f.rel.startsWith('tests/') && !f.rel.startsWith('bench/'))
    .flatMap((f) =>
      f.imports
        .filter((i) => /^ecs\/features\/[^/]+\//.test(i) && !/^ecs\/features\/[^/]+\/index\.ts$/.test(i))
        .map((i) => `${f.rel} -> ${i}`),
    );
}

/** net/, persistence/, world/ and lib/ never import src/ (the composition root); lib/ imports no layer. */
export function compositionRootFromBelow(files: readonly SourceFile[]): string[] {
  return [
    ...forbiddenImports(files, ['net', 'persistence', 'world', 'lib'], ['src']),
    ...forbiddenImports(files, ['lib'], ['ecs', 'net', 'persistence', 'world']),
  ];
}

/** world/ (content) and persistence/ (storage) know nothing of the wire. */
export function wireFromBelow(files: readonly SourceFile[]): string[] {
  return forbiddenImports(files, ['world', 'persistence'], ['net']);
}

/** Metrics are injected: no module-level metric or registry in lib/, net/ or persistence/. */
export function moduleLevelMetrics(files: readonly SourceFile[]): string[] {
  return codeLines(
    files.filter((f) => under(f.rel, ['lib', 'net', 'persistence'])),
    /^\s*(?:export\s+)?(?:const|let)\s+\w+\s*=\s*new\s+(?:Counter|Gauge|Histogram|Summary|Registry)\b/,
  );
}

/** Files that declare wire shapes: net/protocol/, the core's and the features' wire faces and their kit. */
export const isWireFile = (rel: string): boolean =>
  rel.startsWith('net/protocol/') ||
  rel === 'ecs/core/wire.ts' ||
  rel.startsWith('ecs/core/faces/') ||
  /^ecs\/features\/[^/]+\/wire\.ts$/.test(rel);

/**
 * A wire enum takes a named array (`z.enum(TRADE_ERROR_CODES)`), never a literal list: the array is the
 * one list, and the simulation's type is derived from it, so the values cannot be written twice.
 */
export function literalEnums(files: readonly SourceFile[]): string[] {
  return codeLines(
    files.filter((f) => isWireFile(f.rel)),
    /\bz\.enum\(\s*\[/,
  );
}

/** Where wire events are declared: a feature's wire.ts, the core's, and net's own session events. */
const declaresWire = (rel: string): boolean =>
  rel === 'net/protocol/session.ts' ||
  rel === 'ecs/core/wire.ts' ||
  rel === 'ecs/core/faces/wire.ts' ||
  /^ecs\/features\/[^/]+\/wire\.ts$/.test(rel);

/**
 * Each wire shape is written once: `clientEvent(` and `serverEvent(` appear only in the wire faces and
 * net/protocol/session.ts; net/protocol assembles them into the one table (codec, docs, SDK).
 */
export function wireEventsOutsideFaces(files: readonly SourceFile[]): string[] {
  return codeLines(
    files.filter((f) => !declaresWire(f.rel)),
    /\b(?:clientEvent|serverEvent)\s*\(/,
  );
}

/** net/ files that may build zod schemas: the protocol's table, HTTP routes' bodies and replies. */
const NET_SCHEMAS = ['net/protocol/', 'net/routes/', 'net/auth/http-input.ts', 'net/http/reply.ts'];

/** No zod schema in net/ outside the protocol and the HTTP bodies (a wire shape belongs in a face). */
export function zodInNet(files: readonly SourceFile[]): string[] {
  return files
    .filter((f) => f.rel.startsWith('net/') && !NET_SCHEMAS.some((p) => f.rel.startsWith(p)))
    .flatMap((f) => f.valueModules.filter((m) => m === 'zod').map((m) => `${f.rel} -> ${m}`));
}
