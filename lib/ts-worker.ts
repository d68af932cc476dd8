import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';

/**
 * A worker thread running a module of this project, from source or from the build. Built output runs
 * the .js module directly; from source the module is TypeScript, so a small bootstrap registers tsx
 * inside the worker first (a worker does not inherit the loader of tsx or vitest).
 * `moduleUrl` is the module's URL relative to the caller, written with the `.ts` extension.
 */
export function startTsWorker(moduleUrl: URL, workerData: unknown): Worker {
  const compiled = import.meta.url.endsWith('.js');
  if (compiled) return new Worker(new URL(moduleUrl.href.replace(/\.ts$/, '.js')), { workerData });
  const tsxApi = pathToFileURL(
    createRequire(import.meta.url)
      .resolve('tsx/esm/api')
      .replace(/index\.cjs$/, 'index.mjs'),
  ).href;
  const boot = `import(${JSON.stringify(tsxApi)}).then((m) => { m.register(); return import(${JSON.stringify(moduleUrl.href)}); });`;
  return new Worker(boot, { eval: true, workerData });
}
