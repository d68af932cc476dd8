import { defineConfig } from 'vitest/config';

/**
 * Two projects, each one file at a time; `npm test` (tests/run.mjs) runs them as two processes side by
 * side, since vitest itself runs such projects one after the other. The long ones mostly wait: on
 * servers starting and being killed, on a real 600 ms tick. Alone they are half of the suite's time;
 * beside the rest they cost little. Database tests use their own schema or PGlite directory, so the two
 * never share state.
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
