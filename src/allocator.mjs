// Which malloc the server runs with (issue 27: server RSS with 2,000 players <= 600 MB). With glibc's
// malloc the server's threads (main, network, PGlite, libuv's pool) spread over arenas of 64 MB
// reservations whose freed memory is seldom given back: ~390 MB of a 2,000-player server's RSS. jemalloc,
// preloaded (LD_PRELOAD), held the same load ~130 MB lower at the same tick time (docs/scaling.md,
// Memory). So `npm start` (src/start-entry.mjs) and bench:load preload it when the shared library is
// installed; SERVER_ALLOCATOR=system turns that off. Plain JavaScript, no imports: start-entry runs it
// under plain node before anything is built.

/** Where distributions install jemalloc's shared library, for this CPU architecture. */
export function jemallocCandidates(arch) {
  const multiarch = {
    x64: 'x86_64-linux-gnu',
    arm64: 'aarch64-linux-gnu',
    arm: 'arm-linux-gnueabihf',
    ppc64: 'powerpc64le-linux-gnu',
    s390x: 's390x-linux-gnu',
    riscv64: 'riscv64-linux-gnu',
  }[arch];
  return [
    // Debian, Ubuntu (libjemalloc2)
    ...(multiarch ? [`/usr/lib/${multiarch}/libjemalloc.so.2`, `/lib/${multiarch}/libjemalloc.so.2`] : []),
    // RHEL, Fedora, Amazon Linux (jemalloc)
    '/usr/lib64/libjemalloc.so.2',
    // Alpine, Arch
    '/usr/lib/libjemalloc.so.2',
    // built from source
    '/usr/local/lib/libjemalloc.so.2',
  ];
}

/**
 * The environment the server needs for the allocator asked for. Pure: `exists` is the only look at the
 * file system.
 *   env: SERVER_ALLOCATOR (`jemalloc`, the default, or `system`) and LD_PRELOAD are read from it.
 * Returns the allocator chosen, the variables to set (only LD_PRELOAD, only when jemalloc is added: an
 * LD_PRELOAD already set is kept, jemalloc appended after it) and a warning for stderr, if any.
 * @param {{ env: Record<string, string | undefined>, platform: string, arch: string, exists: (file: string) => boolean }} input
 * @returns {{ allocator: 'jemalloc' | 'system', set: Record<string, string>, warning?: string }}
 */
export function chooseAllocator({ env, platform, arch, exists }) {
  const asked = (env.SERVER_ALLOCATOR ?? '').trim().toLowerCase();
  if (asked === 'system') return { allocator: 'system', set: {} };
  const notes = [];
  if (asked !== '' && asked !== 'jemalloc')
    notes.push(`SERVER_ALLOCATOR=${env.SERVER_ALLOCATOR} is neither jemalloc nor system: taken as jemalloc`);
  const done = (result) =>
    notes.length > 0 ? { ...result, warning: `server: ${notes.join('; ')}` } : result;
  // LD_PRELOAD takes paths separated by spaces or colons; joined with colons, so that the start
  // script's word splitting cannot cut it.
  const preloaded = (env.LD_PRELOAD ?? '').split(/[\s:]+/).filter((p) => p !== '');
  if (preloaded.some((p) => /(^|\/)libjemalloc\.so/.test(p))) return done({ allocator: 'jemalloc', set: {} });
  const lib = platform === 'linux' ? jemallocCandidates(arch).find((p) => exists(p)) : undefined;
  if (lib) return done({ allocator: 'jemalloc', set: { LD_PRELOAD: [...preloaded, lib].join(':') } });
  // Not found: the system allocator, silently unless jemalloc was asked for by name.
  if (asked !== '')
    notes.push(
      platform === 'linux'
        ? 'jemalloc asked for (SERVER_ALLOCATOR) but libjemalloc.so.2 is not installed (Debian/Ubuntu: apt install libjemalloc2): running with the system allocator'
        : `jemalloc asked for (SERVER_ALLOCATOR) but it is preloaded on Linux only (this is ${platform}): running with the system allocator`,
    );
  return done({ allocator: 'system', set: {} });
}
