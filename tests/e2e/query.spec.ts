import { test, expect, type Page } from '@playwright/test';
import { resolve } from 'node:path';
import { APP_SIGNAL_MS, fileOpen } from './support/app-ready';
import { typeQuery } from './support/type-query';

// The Query view against serve mode: SQL typed in the editor, run with Ctrl+Enter, the result
// table, a row that opens its sample in the timeline, and the timeline filtered to a result.
const DUMP = resolve(__dirname, '../fixtures/slime/rollout_7.pt');
const URL = '/?token=e2e-test-token';

async function openQuery(page: Page) {
  await page.goto(URL);
  await page.getByTestId('file-input').setInputFiles(DUMP);
  await fileOpen(page, 'rollout_7.pt');
  await page.getByTestId('view-query').click();
  await expect(page.getByTestId('query-view')).toBeVisible();
}

test('a typed query answers, and a row click lands on its sample in the timeline', async ({
  page,
}) => {
  await openQuery(page);
  await typeQuery(page, 'SELECT file, row, status, reward FROM samples WHERE row = 17');
  // the query's answer, however long a busy machine takes to give it
  await expect(page.getByTestId('sql-status')).toContainText('1 rows', { timeout: APP_SIGNAL_MS });
  const row = page.getByTestId('sql-row');
  await expect(row).toHaveCount(1);
  await expect(row).toContainText('17');
  // column types are shown under the names
  await expect(page.getByTestId('sql-result')).toContainText('INTEGER');
  await row.click();
  await expect(page.getByTestId('view-timeline')).toHaveAttribute('aria-selected', 'true');
  await expect(page.getByTestId('sample-details')).toHaveAttribute('data-row-id', '17');
  await expect(page.locator('.row-label.selected')).toHaveAttribute('data-row-id', '17');
});

test('"Show these samples" filters the timeline to the result', async ({ page }) => {
  await openQuery(page);
  await typeQuery(page, 'SELECT file, row FROM samples WHERE row IN (2, 5, 11)');
  await expect(page.getByTestId('sql-row')).toHaveCount(3);
  await page.getByTestId('sql-show-samples').click();
  await expect(page.getByTestId('view-timeline')).toHaveAttribute('aria-selected', 'true');
  const labels = page.locator('.row-label');
  await expect(labels).toHaveCount(3);
  await expect(labels.nth(0)).toHaveAttribute('data-row-id', '2');
  await expect(labels.nth(2)).toHaveAttribute('data-row-id', '11');
});

test("an error shows the engine's message; 100k result rows scroll", async ({ page }) => {
  await openQuery(page);
  await typeQuery(page, 'SELECT nope FROM spans');
  await expect(page.getByTestId('sql-error')).toContainText('Binder Error');
  await expect(page.getByTestId('sql-error')).toContainText('Go to position 7');
  await typeQuery(page, 'SELECT range AS k FROM range(100000)');
  // the query's answer, however long a busy machine takes to give it
  await expect(page.getByTestId('sql-status')).toContainText('100,000 rows', {
    timeout: APP_SIGNAL_MS,
  });
  // only the rows in view are in the page
  expect(await page.getByTestId('sql-row').count()).toBeLessThan(100);
  await page.getByTestId('sql-result').evaluate((el) => (el.scrollTop = el.scrollHeight));
  await expect(page.locator('[data-testid="sql-row"][data-row="99999"]')).toContainText('99999');
});
