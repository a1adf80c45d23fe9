import { defineConfig } from 'vitest/config';

// Playwright specs live in tests/e2e and tests/electron: keep vitest out of them.
export default defineConfig({
  test: {
    include: ['tests/unit/**/*.test.ts', 'tests/unit/**/*.test.tsx', 'tests/golden/**/*.test.ts'],
    testTimeout: 60_000,
    // a fixture dump written before a file's tests, on a machine whose cores are busy
    hookTimeout: 60_000,
    pool: 'threads',
    // the CLI tests run out/main/cli.js: build it first when it is missing or stale
    globalSetup: ['tests/support/build-if-stale.ts'],
  },
});
