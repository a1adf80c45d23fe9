import { defineConfig } from 'vitest/config';

// Playwright specs live in tests/e2e and tests/electron: keep vitest out of them.
export default defineConfig({
  test: {
    include: ['tests/unit/**/*.test.ts', 'tests/golden/**/*.test.ts'],
    testTimeout: 60_000,
    pool: 'threads',
  },
});
