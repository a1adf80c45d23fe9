// Mutation testing (issue 22): `npm run mutate -- <folder>` runs StrykerJS over one folder at a
// time (scripts/mutate.mjs sets STRYKER_FOLDER), because a whole run on 2 shared cores takes too
// long. Not part of `npm test`. Scores are in README.md ("Mutation testing").
const FOLDERS = {
  rows: ['src-main/core/rows/**/*.ts'],
  compare: ['src-main/core/compare/**/*.ts'],
  store: ['src-main/core/store/**/*.ts'],
  // the renderer's pure drawing and layout modules: the timeline's, without its React hooks
  // (use-*.ts) and components (*.tsx)
  drawing: ['src-renderer/timeline/*.ts', '!src-renderer/timeline/use-*.ts'],
};
const folder = process.env.STRYKER_FOLDER ?? 'compare';
if (!(folder in FOLDERS))
  throw new Error(`STRYKER_FOLDER must be one of ${Object.keys(FOLDERS).join(', ')}`);

/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
export default {
  testRunner: 'vitest',
  vitest: { configFile: 'vitest.stryker.config.mts', related: true },
  plugins: ['@stryker-mutator/vitest-runner'],
  mutate: FOLDERS[folder],
  coverageAnalysis: 'perTest',
  concurrency: Number(process.env.STRYKER_CONCURRENCY ?? 2),
  timeoutMS: 20_000,
  reporters: ['clear-text', 'progress', 'html', 'json'],
  htmlReporter: { fileName: `reports/mutation/${folder}.html` },
  jsonReporter: { fileName: `reports/mutation/${folder}.json` },
  ignorePatterns: [
    'out',
    'dist',
    'reports',
    'test-results',
    'playwright-report',
    'tests/bench/.data',
  ],
  tempDirName: '.stryker-tmp',
  cleanTempDir: true,
};
