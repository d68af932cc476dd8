import { defineConfig } from 'vitest/config';

/**
 * Four projects; `npm test` (tests/run.mjs) runs main, long, and browser then examples, as three
 * processes side by side, since vitest itself runs projects one after the other.
 * - main: everything in-process, two files at a time in shared workers (see below).
 * - long: the fault tests, one file at a time: servers started as child processes, killed and
 *   restarted, on both databases (and `npm start` stopped by signals).
 * - browser, then examples: what waits on the real 600 ms tick, Chromium or another program (the
 *   examples, the MCP client). Mostly waiting, so beside the rest they cost little.
 * More at once than these four streams on this 2-core machine made the fault tests miss their
 * deadlines. Database tests use their own schema or PGlite directory, and every server its own free
 * port, so no two tests share state.
 */
const LONG = [
  'tests/restart/**/*.test.ts',
  'tests/crash/**/*.test.ts',
  'tests/property/trade-crash.test.ts',
  'tests/integration/db-outage.test.ts',
  'tests/integration/shutdown-signals.test.ts',
];

const EXAMPLES = [
  'tests/integration/mcp-quest.test.ts',
  'tests/integration/example-*.test.ts',
  'tests/integration/python-example.test.ts',
];

const BROWSER = ['tests/browser/**/*.test.ts'];

/** The server compiled once for the fault tests, which start it as a child process again and again. */
const COMPILED_SERVER = 'tests/helpers/compiled-server.ts';

const shared = {
  fileParallelism: false,
  // Beside the rest of the suite on two cores a test runs 3-4 times slower than alone.
  testTimeout: 60_000,
  hookTimeout: 60_000,
};

export default defineConfig({
  test: {
    reporters: ['default'],
    projects: [
      {
        test: {
          ...shared,
          name: 'main',
          // Two files at a time in shared workers: importing the server's module graph afresh for each
          // of ~150 files cost more than half of this project's time (isolate), and many files mostly
          // wait on sockets and ticks. Each file makes its own worlds, databases and servers.
          fileParallelism: true,
          maxWorkers: 2,
          isolate: false,
          include: ['tests/**/*.test.ts', 'ecs/**/*.test.ts'],
          exclude: [...LONG, ...EXAMPLES, ...BROWSER, '**/node_modules/**'],
        },
      },
      {
        test: {
          ...shared,
          name: 'long',
          include: LONG,
          globalSetup: [COMPILED_SERVER],
        },
      },
      { test: { ...shared, name: 'examples', include: EXAMPLES } },
      { test: { ...shared, name: 'browser', include: BROWSER } },
    ],
  },
});
