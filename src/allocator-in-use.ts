import { readFileSync } from 'node:fs';

/**
 * The malloc this process runs with, for the start-up log: a preloaded allocator (jemalloc, tcmalloc,
 * mimalloc) shows among the shared objects mapped into the process (Linux: /proc/self/maps); otherwise
 * `system` (glibc's or musl's malloc), or `unknown` where there is no /proc. What chose it: src/allocator.mjs.
 */
export function allocatorInUse(maps: () => string = () => readFileSync('/proc/self/maps', 'utf8')): string {
  let text: string;
  try {
    text = maps();
  } catch {
    return 'unknown';
  }
  const m = /\/lib(jemalloc|tcmalloc(?:_minimal)?|mimalloc)[^/\s]*\.so/.exec(text);
  return m ? (m[1] as string).replace('_minimal', '') : 'system';
}
