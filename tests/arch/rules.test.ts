import { describe, expect, it } from 'vitest';
import {
  compositionRootFromBelow,
  coreKnowsNoFeature,
  ecsImportsOnlyBitecs,
  faceImports,
  featureInternalsFromOutside,
  fileCycles,
  folderCycles,
  literalEnums,
  moduleLevelMetrics,
  nondeterminism,
  scheduleFromBelow,
  wireEventsOutsideFaces,
  wireFromBelow,
  zodInNet,
} from './rules.ts';
import { isTest, parseSource, type SourceFile, sourceFiles } from './source-files.ts';

/**
 * Each architecture rule, run on the real tree with one deliberate violation added: the rule must name
 * it. Together with architecture.test.ts (the same rules on the tree as it is, which must be clean) this
 * proves every rule can fail.
 */

const LAYERS = ['ecs', 'net', 'persistence', 'world', 'src', 'lib'] as const;
const tree = LAYERS.flatMap((d) => sourceFiles(d)).filter((f) => !isTest(f.rel));

/** The tree with one file's text replaced (or a file added). */
function withFile(rel: string, text: (old: string) => string): SourceFile[] {
  const old = tree.find((f) => f.rel === rel);
  const changed = parseSource(rel, text(old?.text ?? ''));
  return old ? tree.map((f) => (f === old ? changed : f)) : [...tree, changed];
}

const prepend = (line: string) => (text: string) => `${line}\n${text}`;

describe('architecture rules catch a deliberate violation', () => {
  it('file loops: ammo.ts importing combat.ts back', () => {
    const files = withFile(
      'ecs/features/combat/ammo.ts',
      prepend("import { handleAttack } from './combat.ts';"),
    );
    expect(fileCycles(tree, LAYERS)).toEqual([]);
    expect(fileCycles(files, LAYERS)).toEqual([
      expect.stringMatching(/ecs\/features\/combat\/ammo\.ts <-> ecs\/features\/combat\/combat\.ts/),
    ]);
  });

  it('file loops: a type-only import closes a loop too', () => {
    const files = withFile('ecs/core/shapes.ts', prepend("import type { Plan } from './plan.ts';"));
    expect(fileCycles(files, LAYERS)).toEqual(['ecs/core/plan.ts <-> ecs/core/shapes.ts']);
  });

  it('folder loops: persistence/slices/social.ts importing persistence/repo/social.ts', () => {
    const files = withFile(
      'persistence/slices/social.ts',
      prepend("import { socialAct } from '../repo/social.ts';"),
    );
    expect(folderCycles(tree, 'persistence')).toEqual([]);
    expect(folderCycles(files, 'persistence')).toEqual(['persistence/repo/ <-> persistence/slices/']);
  });

  it('folder loops: net/http importing net/thread', () => {
    const files = withFile(
      'net/http/pipeline.ts',
      prepend("import type { NetEvent } from '../thread/messages.ts';"),
    );
    expect(folderCycles(files, 'net')).toEqual(['net/http/ <-> net/thread/']);
  });

  it('world/ and persistence/ know no net/: world/loader.ts importing net/protocol/index.ts', () => {
    expect(wireFromBelow(tree)).toEqual([]);
    const files = withFile(
      'world/loader.ts',
      prepend("import { serverEvents } from '../net/protocol/index.ts';"),
    );
    expect(wireFromBelow(files)).toEqual(['world/loader.ts -> net/protocol/index.ts']);
    const port = withFile(
      'persistence/port.ts',
      prepend("import type { Encoding } from '../net/protocol/codec.ts';"),
    );
    expect(wireFromBelow(port)).toEqual(['persistence/port.ts -> net/protocol/codec.ts']);
  });

  it("a feature's internals from outside ecs/: src/world-runtime.ts importing movement's pathfinding-system.ts", () => {
    expect(featureInternalsFromOutside(tree)).toEqual([]);
    const files = withFile(
      'src/world-runtime.ts',
      prepend("import { prepareMovement } from '../ecs/features/movement/pathfinding-system.ts';"),
    );
    expect(featureInternalsFromOutside(files)).toEqual([
      'src/world-runtime.ts -> ecs/features/movement/pathfinding-system.ts',
    ]);
    // Through its index.ts is the way in.
    const ok = withFile(
      'src/world-runtime.ts',
      prepend("import { movement } from '../ecs/features/movement/index.ts';"),
    );
    expect(featureInternalsFromOutside(ok)).toEqual([]);
  });

  it('the schedule from below: a feature importing PLAN, core importing the game world', () => {
    expect(scheduleFromBelow(tree)).toEqual([]);
    const files = withFile('ecs/features/bank/bank.ts', prepend("import { PLAN } from '../../schedule.ts';"));
    expect(scheduleFromBelow(files)).toEqual(['ecs/features/bank/bank.ts -> ecs/schedule.ts']);
    const core = withFile('ecs/core/tick.ts', prepend("import { createGameWorld } from '../game.ts';"));
    expect(scheduleFromBelow(core)).toEqual(['ecs/core/tick.ts -> ecs/game.ts']);
  });

  it.each([
    ['Math.random()', 'const r = Math.random();'],
    ["Math['random']()", "const r = Math['random']();"],
    ['const { random } = Math', 'const { random } = Math;'],
    ['an alias of Math', 'const m = Math;'],
    ['globalThis.Math.random()', 'const r = globalThis.Math.random();'],
    ['Reflect.get(Math, ...)', "const f = Reflect.get(Math, 'random');"],
    ['Date.now()', 'const t = Date.now();'],
    ['new Date()', 'const d = new Date();'],
    ['performance.now()', 'const t = performance.now();'],
    ['crypto.randomUUID()', 'const id = crypto.randomUUID();'],
    ['eval', "const x = eval('1');"],
    ['new Function', "const f = new Function('return 1');"],
    ['a dynamic import', "const m = import('./x.ts');"],
    ['setTimeout', 'setTimeout(() => {}, 1);'],
    ['async code', 'export async function later() {}'],
  ])('determinism in ecs/: %s', (_name, line) => {
    expect(nondeterminism(tree)).toEqual([]);
    const files = withFile('ecs/features/bank/bank.ts', (t) => `${t}\n${line}\n`);
    const lines = files.find((f) => f.rel === 'ecs/features/bank/bank.ts')?.text.split('\n').length ?? 0;
    expect(nondeterminism(files)).toEqual([
      expect.stringMatching(`^ecs/features/bank/bank.ts:${lines - 1}: `),
    ]);
  });

  it('determinism in ecs/: the allowed Math functions and words in comments or strings pass', () => {
    const files = withFile(
      'ecs/features/bank/bank.ts',
      (t) =>
        `${t}\n// Math.random is banned\nconst s = 'Date.now()';\nconst h = Math.hypot(Math.PI, Math.sign(-1));\n`,
    );
    expect(nondeterminism(files)).toEqual([]);
  });

  it('ecs/ imports only bitecs: a node: module, a package, an outer layer', () => {
    expect(ecsImportsOnlyBitecs(tree)).toEqual([]);
    const files = withFile(
      'ecs/core/rng.ts',
      prepend(
        "import { readFileSync } from 'node:fs';\nimport { pino } from 'pino';\nimport { REPO_ROOT } from '../../lib/repo-root.ts';",
      ),
    );
    expect(ecsImportsOnlyBitecs(files)).toEqual([
      'ecs/core/rng.ts -> lib/repo-root.ts',
      'ecs/core/rng.ts -> node:fs',
      'ecs/core/rng.ts -> pino',
    ]);
  });

  it('ecs/core/ knows no feature: core importing the bank', () => {
    expect(coreKnowsNoFeature(tree)).toEqual([]);
    const files = withFile(
      'ecs/core/players.ts',
      prepend("import { bank } from '../features/bank/index.ts';"),
    );
    expect(coreKnowsNoFeature(files)).toEqual(['ecs/core/players.ts -> ecs/features/bank/index.ts']);
  });

  it('the composition root from below: net importing src, lib importing a layer', () => {
    expect(compositionRootFromBelow(tree)).toEqual([]);
    const files = withFile(
      'net/routes/status.ts',
      prepend("import { VERSION } from '../../src/version.ts';"),
    );
    expect(compositionRootFromBelow(files)).toEqual(['net/routes/status.ts -> src/version.ts']);
    const lib = withFile('lib/logger.ts', prepend("import type { GameWorld } from '../ecs/core/world.ts';"));
    expect(compositionRootFromBelow(lib)).toEqual(['lib/logger.ts -> ecs/core/world.ts']);
  });

  it('metrics are injected: a module-level Counter in net/', () => {
    expect(moduleLevelMetrics(tree)).toEqual([]);
    const files = withFile(
      'net/routes/status.ts',
      (t) => `${t}\nexport const hits = new Counter({ name: 'x', help: 'x' });\n`,
    );
    expect(moduleLevelMetrics(files)).toEqual([expect.stringContaining('new Counter')]);
  });

  it('wire enums take a named array: a literal list in a wire file', () => {
    expect(literalEnums(tree)).toEqual([]);
    const files = withFile(
      'net/protocol/features/chat.ts',
      (t) => `${t}\nexport const channel = z.enum(['local', 'private']);\n`,
    );
    expect(literalEnums(files)).toEqual([expect.stringMatching(/^net\/protocol\/features\/chat\.ts:\d+: /)]);
    // Outside the wire (an operator setting) a literal list is fine.
    const config = withFile('lib/config.ts', (t) => `${t}\nexport const level = z.enum(['a', 'b']);\n`);
    expect(literalEnums(config)).toEqual([]);
  });

  it('zod in ecs/ only in face files: a system loading zod', () => {
    expect(ecsImportsOnlyBitecs(tree)).toEqual([]);
    const files = withFile('ecs/features/home-teleport/teleport.ts', prepend("import { z } from 'zod';"));
    expect(ecsImportsOnlyBitecs(files)).toEqual([
      'ecs/features/home-teleport/teleport.ts -> zod (zod is for face files only)',
    ]);
    // Naming a zod type is erased at run time: allowed.
    const typeOnly = withFile(
      'ecs/features/home-teleport/teleport.ts',
      prepend("import type { z } from 'zod';"),
    );
    expect(ecsImportsOnlyBitecs(typeOnly)).toEqual([]);
  });

  it('faces are imported type-only by simulation files: teleport.ts value-importing its wire.ts', () => {
    expect(faceImports(tree)).toEqual([]);
    const files = withFile(
      'ecs/features/home-teleport/teleport.ts',
      prepend("import { TELEPORT_INTERRUPTIONS } from './wire.ts';"),
    );
    expect(faceImports(files)).toEqual([
      'ecs/features/home-teleport/teleport.ts -> ecs/features/home-teleport/wire.ts (import type only)',
    ]);
    const typeOnly = withFile(
      'ecs/features/home-teleport/teleport.ts',
      prepend("import type { teleportStart } from './wire.ts';"),
    );
    expect(faceImports(typeOnly)).toEqual([]);
    const ownIndex = withFile(
      'ecs/features/home-teleport/wire.ts',
      prepend("import { CAST_TICKS } from './index.ts';"),
    );
    expect(faceImports(ownIndex)).toEqual([
      "ecs/features/home-teleport/wire.ts -> ecs/features/home-teleport/index.ts (a face imports its folder's files, not its index.ts)",
    ]);
  });

  it('wire events outside faces: a serverEvent declared in net/session', () => {
    expect(wireEventsOutsideFaces(tree)).toEqual([]);
    const files = withFile(
      'net/session/player-sync.ts',
      (t) => `${t}\nexport const extra = serverEvent({ schema: z.object({}), doc: '' });\n`,
    );
    expect(wireEventsOutsideFaces(files)).toEqual([
      expect.stringMatching(/^net\/session\/player-sync\.ts:\d+: /),
    ]);
    const sim = withFile('ecs/features/bank/bank.ts', (t) => `${t}\nconst e = clientEvent({});\n`);
    expect(wireEventsOutsideFaces(sim)).toEqual([
      expect.stringMatching(/^ecs\/features\/bank\/bank\.ts:\d+: /),
    ]);
  });

  it('zod in net/ outside the protocol and HTTP bodies: net/session building a schema', () => {
    expect(zodInNet(tree)).toEqual([]);
    const files = withFile('net/session/player-sync.ts', prepend("import { z } from 'zod';"));
    expect(zodInNet(files)).toEqual(['net/session/player-sync.ts -> zod']);
    const route = withFile('net/routes/status.ts', prepend("import { z } from 'zod';"));
    expect(zodInNet(route)).toEqual([]);
  });
});
