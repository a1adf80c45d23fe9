import { test, expect, _electron as electron } from '@playwright/test';
import { resolve } from 'node:path';
// @ts-expect-error plain ESM helper shared with scripts/start.mjs
import { findElectronBinary } from '../../scripts/electron-binary.mjs';

const root = resolve(__dirname, '../..');
const binary = findElectronBinary() as string | null;
const fixture = resolve(root, '../shared/fixtures/slime/rollout_small.pt');

test.describe('Electron app', () => {
  test.skip(
    !binary,
    'Electron binary not installed (it downloads from outside the npm registry); these launch tests run where it is.',
  );

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
      return (w.webContents as unknown as { getLastWebPreferences(): unknown }).getLastWebPreferences();
    });
    expect(prefs).toMatchObject({ contextIsolation: true, sandbox: true, nodeIntegration: false });
    await app.close();
  });
});
