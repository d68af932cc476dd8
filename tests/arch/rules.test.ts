import { describe, expect, it } from 'vitest';
import { fileCycles, folderCycles } from './rules.ts';
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
});
