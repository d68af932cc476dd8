import { defineConfig } from 'vitest/config';

/**
 * Two projects that run side by side, each one file at a time. The long ones mostly wait: on servers
 * starting and being killed, on a real 600 ms tick, on a browser. Run alone they are over half of the
 * suite's time; beside the rest they cost little, and a 2-core machine finishes the suite in about half.
 * Database tests use their own schema or PGlite directory, so the two projects never share state.
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
          exclude: [...LONG, '**/node_modules/**'],
        },
      },
      { test: { ...shared, name: 'long', include: LONG } },
    ],
  },
});
