import { defineConfig } from 'vitest/config';

/**
 * Three projects, each one file at a time; `npm test` (tests/run.mjs) runs them as three processes side
 * by side, since vitest itself runs such projects one after the other. The long ones mostly wait: on
 * servers starting and being killed, on a real 600 ms tick. The browser ones mostly wait on Chromium and
 * the server's ticks (a third of a core). Alone each is a large share of the suite's time; beside the
 * rest they cost little. Database tests use their own schema or PGlite directory, and every server its
 * own free port, so the three never share state.
 */
const LONG = [
  'tests/restart/**/*.test.ts',
  'tests/crash/**/*.test.ts',
  'tests/property/trade-crash.test.ts',
  'tests/integration/db-outage.test.ts',
  'tests/integration/mcp-quest.test.ts',
  'tests/integration/example-*.test.ts',
  'tests/integration/python-example.test.ts',
  'tests/integration/shutdown-signals.test.ts',
];

const BROWSER = ['tests/browser/**/*.test.ts'];

const shared = {
  fileParallelism: false,
  testTimeout: 30_000,
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
          include: ['tests/**/*.test.ts', 'ecs/**/*.test.ts'],
          exclude: [...LONG, ...BROWSER, '**/node_modules/**'],
        },
      },
      { test: { ...shared, name: 'long', include: LONG } },
      { test: { ...shared, name: 'browser', include: BROWSER } },
    ],
  },
});
