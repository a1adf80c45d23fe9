import { defineConfig } from 'vitest/config';

// Stryker's copy of the unit config: the same tests, without the global set-up that builds the
// CLI (a mutant lives in memory; the built CLI would not carry it, so CLI tests cannot kill it).
export default defineConfig({
  test: {
    include: ['tests/unit/**/*.test.ts', 'tests/golden/**/*.test.ts'],
    exclude: [
      'tests/unit/cli/**',
      'tests/unit/fuzz/**',
      'tests/unit/trends/**',
      'tests/unit/layers/**',
      'tests/unit/desktop/**',
    ],
    testTimeout: 60_000,
    pool: 'threads',
  },
});
