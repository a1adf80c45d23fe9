import { expect, type Page } from '@playwright/test';

/**
 * How long a test waits for the app to say it is done with something (its own signal, never a
 * fixed time): generous, since the suite must pass on a busy machine (issue 49: it is run
 * beside a two-core CPU hog), and a signal that comes sooner ends the wait sooner.
 */
export const APP_SIGNAL_MS = 120_000;

/**
 * The page at `url`, once the app has opened every file main opened at start-up: body
 * [data-ready] is set after initialFiles answers (it waits for those opens) and the page has
 * adopted them, so the file tabs and row counts asked for next are final, not still growing.
 */
export async function gotoReady(page: Page, url: string): Promise<void> {
  await page.goto(url);
  await expect(page.locator('body')).toHaveAttribute('data-ready', 'true', {
    timeout: APP_SIGNAL_MS,
  });
}

/**
 * The file tab named `name`, once its file is open: the tab shows from a file's first rows on,
 * and its data-state is 'open' when the whole file is read, so its counts are final.
 */
export async function fileOpen(page: Page, name: string): Promise<void> {
  const tab = page
    .getByTestId('file-tab')
    .filter({ has: page.locator('.tab-name').getByText(name, { exact: true }) });
  await expect(tab).toHaveAttribute('data-state', 'open', { timeout: APP_SIGNAL_MS });
}
