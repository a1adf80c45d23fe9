import { defineConfig } from 'vitest/config';

// Stryker's test set per mutated folder (STRYKER_FOLDER, see stryker.config.mjs): the tests that
// state each folder's behaviour. Running every test that merely passes through the code (the
// CLI, every fixture opened at collection time) turned most mutants "static", each re-running
// the whole suite: hours on 2 cores. No CLI tests here either: the built CLI carries no mutant.
const TESTS: Record<string, string[]> = {
  rows: ['tests/unit/rows/**/*.test.ts', 'tests/golden/**/*.test.ts'],
  compare: ['tests/unit/compare/**/*.test.ts'],
  store: ['tests/unit/store/**/*.test.ts'],
  drawing: ['tests/unit/timeline/**/*.test.ts'],
};

export default defineConfig({
  test: {
    include: TESTS[process.env.STRYKER_FOLDER ?? 'compare'] ?? [],
    testTimeout: 60_000,
    pool: 'threads',
  },
});
