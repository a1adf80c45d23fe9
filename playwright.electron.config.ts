import { defineConfig } from '@playwright/test';

// Launch tests of the real Electron app; each spec skips itself, with the reason printed,
// where the Electron binary is not installed (it is downloaded from outside the registries).
export default defineConfig({
  testDir: 'tests/electron',
  timeout: 60_000,
  workers: 1,
  reporter: [['list']],
});
