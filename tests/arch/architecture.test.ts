import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { AnyFeature } from '../../ecs/core/feature.ts';
import { FEATURES, PLAN } from '../../ecs/schedule.ts';
import { REPO_ROOT } from '../../lib/repo-root.ts';
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
import { isTest, sourceFiles } from './source-files.ts';

/**
 * The house rules of ARCHITECTURE as tests: each fails with the offending file and line. The rules are
 * functions in rules.ts; rules.test.ts shows each one failing on a deliberate violation.
 */

/** Runtime code of every server layer (tests and their helpers excluded). */
const LAYERS = ['ecs', 'net', 'persistence', 'world', 'src', 'lib'] as const;
const runtime = LAYERS.flatMap((d) => sourceFiles(d)).filter((f) => !isTest(f.rel));
/** Everything outside ecs/ that may use the simulation: the layers, the SDK and the web client. */
const outer = [...runtime, ...sourceFiles('sdk'), ...sourceFiles('client/src')].filter((f) => !isTest(f.rel));
const ecs = runtime.filter((f) => f.rel.startsWith('ecs/'));

describe('architecture', () => {
  it('ecs/ imports nothing from net/, persistence/, src/, world/ or lib/, and no package but bitecs; zod in face files only', () => {
    expect(ecsImportsOnlyBitecs(runtime)).toEqual([]);
  });

  it('simulation files import faces type-only; only feature.ts attaches them; a face never imports its own index.ts', () => {
    expect(faceImports(runtime)).toEqual([]);
  });

  it('ecs/ is synchronous and deterministic: Math only through its pure functions; no clock, crypto, timers, async or global escape hatch', () => {
    expect(nondeterminism(runtime)).toEqual([]);
  });

  it('ecs/core/ knows no feature', () => {
    expect(coreKnowsNoFeature(runtime)).toEqual([]);
  });

  it('ecs/core/ and the features import neither ecs/schedule.ts nor ecs/game.ts', () => {
    expect(scheduleFromBelow(runtime)).toEqual([]);
  });

  it('outside ecs/ (src, net, world, persistence, lib, sdk, client) a feature is reached only through its index.ts', () => {
    expect(featureInternalsFromOutside(outer)).toEqual([]);
  });

  it('net/, persistence/, world/ and lib/ never import the composition root (src/); lib/ imports no layer', () => {
    expect(compositionRootFromBelow(runtime)).toEqual([]);
  });

  it('world/ and persistence/ import nothing from net/', () => {
    expect(wireFromBelow(runtime)).toEqual([]);
  });

  it('metrics are injected: no module-level metric or registry in lib/, net/ or persistence/', () => {
    expect(moduleLevelMetrics(runtime)).toEqual([]);
  });

  it('wire events are declared only in wire faces and net/protocol/session.ts', () => {
    expect(wireEventsOutsideFaces(outer)).toEqual([]);
  });

  it('net/ builds zod schemas only in net/protocol/, net/routes/, net/auth/http-input.ts and net/http/reply.ts', () => {
    expect(zodInNet(runtime)).toEqual([]);
  });

  it('a wire enum takes a named array, never a literal list (so its values are written once)', () => {
    expect(literalEnums(runtime)).toEqual([]);
  });

  it('no import loop between files of a layer (type imports count)', () => {
    expect(fileCycles(runtime, LAYERS)).toEqual([]);
  });

  it('no import loop between the sub-folders of a layer', () => {
    expect(LAYERS.flatMap((layer) => folderCycles(runtime, layer))).toEqual([]);
  });

  it('a feature uses another only through its index.ts, and only if it lists it in `uses`', () => {
    const byFolder = featureFolders();
    const bad: string[] = [];
    for (const f of ecs.filter((x) => x.rel.startsWith('ecs/features/'))) {
      const own = f.rel.split('/')[2] as string;
      for (const i of f.imports.filter((x) => x.startsWith('ecs/features/'))) {
        const other = i.split('/')[2] as string;
        if (other === own) continue;
        if (i !== `ecs/features/${other}/index.ts`) bad.push(`${f.rel} reaches into ${i}`);
        const feature = byFolder.get(own);
        const used = byFolder.get(other);
        if (feature && used && !(feature.uses ?? []).includes(used))
          bad.push(`${f.rel}: feature ${feature.name} imports ${used.name} without listing it in uses`);
      }
    }
    expect(bad).toEqual([]);
  });

  it('every feature folder is registered in FEATURES', () => {
    const folders = [
      ...new Set(ecs.filter((f) => f.rel.startsWith('ecs/features/')).map((f) => f.rel.split('/')[2])),
    ];
    const registered = featureFolders();
    expect(folders.filter((f) => !registered.has(f as string))).toEqual([]);
  });

  it("the schedule's numbered tick comment lists the systems in the order the plan runs them", () => {
    const text = readFileSync(path.join(REPO_ROOT, 'ecs/schedule.ts'), 'utf8');
    const listed = [...text.matchAll(/^ \*\s+\d+\.\s+(\w+)\s+\[(\w+)\]/gm)].map((m) => `${m[1]} [${m[2]}]`);
    expect(listed).toEqual(PLAN.systems.map((s) => `${s.name} [${s.feature}]`));
  });
});

/** Folder name -> the feature its index.ts exports (the one object of FEATURES it re-exports). */
function featureFolders(): Map<string, AnyFeature> {
  const map = new Map<string, AnyFeature>();
  for (const f of sourceFiles('ecs/features').filter((x) => x.rel.endsWith('/index.ts'))) {
    const folder = f.rel.split('/')[2] as string;
    const exported = [...f.text.matchAll(/export \{([^}]*)\} from '\.\/feature\.ts'/g)].flatMap((m) =>
      (m[1] as string).split(',').map((s) => s.trim()),
    );
    const feature = FEATURES.find((x) => exported.includes(x.name));
    if (feature) map.set(folder, feature);
  }
  return map;
}
