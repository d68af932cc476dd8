#!/usr/bin/env node
/**
 * `npm test`: the suite's vitest projects (vitest.config.ts) as three processes side by side: main,
 * long, and browser then examples (one vitest run takes projects one after the other). The long
 * (servers started and killed) and the browser and examples (Chromium, the real 600 ms tick) mostly
 * wait: beside the rest they cost little.
 * With arguments (a file, a filter), one `vitest run` with those arguments, as `npx vitest run` would.
 * Exits non-zero when any run fails.
 */
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import path from 'node:path';

const vitest = path.join(
  path.dirname(createRequire(import.meta.url).resolve('vitest/package.json')),
  'vitest.mjs',
);
const args = process.argv.slice(2);
const color = process.stdout.isTTY ? { FORCE_COLOR: '1' } : {};

function run(extra) {
  const child = spawn(process.execPath, [vitest, 'run', ...extra], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, ...color },
  });
  // Whole lines only, so the two runs' output interleaves line by line.
  for (const [from, to] of [
    [child.stdout, process.stdout],
    [child.stderr, process.stderr],
  ]) {
    let rest = '';
    from.setEncoding('utf8');
    from.on('data', (chunk) => {
      const text = rest + chunk;
      const end = text.lastIndexOf('\n') + 1;
      to.write(text.slice(0, end));
      rest = text.slice(end);
    });
    from.on('end', () => rest && to.write(`${rest}\n`));
  }
  return {
    child,
    done: new Promise((resolve) => child.on('close', (code, signal) => resolve(code ?? (signal ? 1 : 0)))),
  };
}

const runs =
  args.length > 0
    ? [run(args)]
    : [['main'], ['long'], ['browser', 'examples']].map((projects) =>
        run(projects.flatMap((p) => ['--project', p])),
      );
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => {
    for (const r of runs) r.child.kill(signal);
  });
}
const codes = await Promise.all(runs.map((r) => r.done));
process.exit(Math.max(...codes));
