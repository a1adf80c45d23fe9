import { test, expect, _electron as electron } from '@playwright/test';
import { resolve } from 'node:path';
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { findElectronBinary } = require('../../scripts/electron-binary.cjs') as {
  findElectronBinary(): string | null;
};

const root = resolve(__dirname, '../..');
const binary = findElectronBinary();
const fixture = resolve(root, 'tests/fixtures/slime/rollout_small.pt');

// True wherever it shows: npm install of electron >= 43 fetches no binary (it comes from
// Electron's own host on first use or via its install-electron bin, not from the npm registry).
const SKIP_REASON =
  'Electron binary not installed (npm install does not fetch it): run `npx install-electron` to run the launch tests.';
if (!binary) console.log(`Electron launch tests skipped: ${SKIP_REASON}`);

test.describe('Electron app', () => {
  test.skip(!binary, SKIP_REASON);

  test('opens a fixture from the command line, shows rows and the details panel', async () => {
    const app = await electron.launch({ executablePath: binary!, args: [root, fixture] });
    const window = await app.firstWindow();
    await expect(window.getByTestId('file-tab')).toHaveCount(1);
    await expect(window.getByTestId('file-tab')).toContainText('rollout_small.pt');
    await expect(window.getByTestId('timeline-row').first()).toBeVisible();
    await window.getByTestId('timeline-row').first().click();
    await expect(window.getByTestId('details-panel')).toBeVisible();
    const prefs = await app.evaluate(({ BrowserWindow }) => {
      const w = BrowserWindow.getAllWindows()[0];
      return (
        w.webContents as unknown as { getLastWebPreferences(): unknown }
      ).getLastWebPreferences();
    });
    expect(prefs).toMatchObject({ contextIsolation: true, sandbox: true, nodeIntegration: false });
    await app.close();
  });
});
