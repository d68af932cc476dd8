import { describe, expect, it } from 'vitest';
import { chooseAllocator } from '../../src/allocator.mjs';
import { allocatorInUse } from '../../src/allocator-in-use.ts';

/** Issue 27: `npm start` (src/start-entry.mjs) and bench:load preload jemalloc when it is installed. */

const DEBIAN = '/usr/lib/x86_64-linux-gnu/libjemalloc.so.2';
const only =
  (...files: string[]) =>
  (f: string) =>
    files.includes(f);
const linux = (env: Record<string, string | undefined>, exists: (f: string) => boolean) =>
  chooseAllocator({ env, platform: 'linux', arch: 'x64', exists });

describe('the allocator npm start runs the server with', () => {
  it('is jemalloc, preloaded, when the library is installed (Debian/Ubuntu multiarch path)', () => {
    expect(linux({}, only(DEBIAN))).toEqual({ allocator: 'jemalloc', set: { LD_PRELOAD: DEBIAN } });
  });

  it('finds the library where other distributions put it', () => {
    expect(linux({}, only('/usr/lib64/libjemalloc.so.2')).set).toEqual({
      LD_PRELOAD: '/usr/lib64/libjemalloc.so.2',
    });
    expect(linux({}, only('/usr/lib/libjemalloc.so.2')).set).toEqual({
      LD_PRELOAD: '/usr/lib/libjemalloc.so.2',
    });
    const arm = chooseAllocator({
      env: {},
      platform: 'linux',
      arch: 'arm64',
      exists: only('/usr/lib/aarch64-linux-gnu/libjemalloc.so.2'),
    });
    expect(arm.set).toEqual({ LD_PRELOAD: '/usr/lib/aarch64-linux-gnu/libjemalloc.so.2' });
  });

  it('is the system allocator, silently, when the library is not installed', () => {
    expect(linux({}, () => false)).toEqual({ allocator: 'system', set: {} });
  });

  it('is the system allocator with SERVER_ALLOCATOR=system, even when jemalloc is installed', () => {
    expect(linux({ SERVER_ALLOCATOR: 'system' }, only(DEBIAN))).toEqual({ allocator: 'system', set: {} });
  });

  it('says so when SERVER_ALLOCATOR=jemalloc but the library is missing, and goes on without it', () => {
    const r = linux({ SERVER_ALLOCATOR: 'jemalloc' }, () => false);
    expect(r.allocator).toBe('system');
    expect(r.set).toEqual({});
    expect(r.warning).toMatch(/not installed.*system allocator/);
    expect(
      chooseAllocator({
        env: { SERVER_ALLOCATOR: 'jemalloc' },
        platform: 'darwin',
        arch: 'arm64',
        exists: () => true,
      }),
    ).toMatchObject({ allocator: 'system', set: {}, warning: expect.stringMatching(/Linux only/) });
  });

  it('keeps an LD_PRELOAD already set and appends jemalloc after it (colons: no spaces for the shell to split)', () => {
    expect(linux({ LD_PRELOAD: '/opt/a.so' }, only(DEBIAN)).set).toEqual({
      LD_PRELOAD: `/opt/a.so:${DEBIAN}`,
    });
    expect(linux({ LD_PRELOAD: '/opt/a.so /opt/b.so' }, only(DEBIAN)).set).toEqual({
      LD_PRELOAD: `/opt/a.so:/opt/b.so:${DEBIAN}`,
    });
    // Switched off or not installed: nothing set, so the existing LD_PRELOAD passes through as it is.
    expect(linux({ LD_PRELOAD: '/opt/a.so', SERVER_ALLOCATOR: 'system' }, only(DEBIAN)).set).toEqual({});
    expect(linux({ LD_PRELOAD: '/opt/a.so' }, () => false).set).toEqual({});
  });

  it('does not preload jemalloc twice', () => {
    expect(linux({ LD_PRELOAD: '/usr/local/lib/libjemalloc.so.2' }, only(DEBIAN))).toEqual({
      allocator: 'jemalloc',
      set: {},
    });
  });

  it('warns about an unknown SERVER_ALLOCATOR and takes the default', () => {
    const r = linux({ SERVER_ALLOCATOR: 'tcmalloc' }, only(DEBIAN));
    expect(r).toMatchObject({ allocator: 'jemalloc', set: { LD_PRELOAD: DEBIAN } });
    expect(r.warning).toMatch(/SERVER_ALLOCATOR=tcmalloc is neither jemalloc nor system/);
  });
});

describe('the allocator the server logs at start-up', () => {
  it('is the preloaded library mapped into the process, else system, else unknown', () => {
    expect(allocatorInUse(() => `7f00-7f10 r-xp 00000000 08:01 1 ${DEBIAN}\n`)).toBe('jemalloc');
    expect(
      allocatorInUse(() => '7f00-7f10 r-xp 00000000 08:01 1 /usr/lib/x86_64-linux-gnu/libc.so.6\n'),
    ).toBe('system');
    expect(
      allocatorInUse(() => {
        throw new Error('ENOENT');
      }),
    ).toBe('unknown');
  });
});
