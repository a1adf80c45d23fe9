import { test, expect } from '@playwright/test';
import type { ChildProcess } from 'node:child_process';
import { resolve } from 'node:path';
import { startServe } from './support/start-serve';
import { APP_SIGNAL_MS } from './support/app-ready';
import { typeQuery } from './support/type-query';

/**
 * The Query panel of a run tab: one SQL over every file of the run (tests/fixtures/run:
 * README counts), and a result row that opens its sample in the run's details.
 */
const CLI = resolve(__dirname, '../../out/main/cli.js');
const RUN = resolve(__dirname, '../fixtures/run');
// beside the suite's own server and run.spec's (E2E_PORT + 20)
const PORT = Number(process.env.E2E_PORT ?? 4791) + 21;
const TOKEN = 'query-run-token';

let server: ChildProcess;
test.beforeAll(async () => {
  ({ server } = await startServe(CLI, PORT, TOKEN, [RUN]));
});
test.afterAll(() => {
  server?.kill();
});

test('a run tab answers SQL over all its files; a row opens its sample', async ({ page }) => {
  await page.goto(`http://127.0.0.1:${PORT}/?token=${TOKEN}`);
  await expect(page.getByTestId('run-counts')).toContainText('1 request without sample', {
    timeout: 60_000,
  });
  await page.getByTestId('run-query').click();
  // README: 65 SGLang requests, 64 joined to the sample whose generate span carried the rid
  await typeQuery(
    page,
    'SELECT sample_file AS file, sample_row AS row, rid FROM server_requests ORDER BY sample_row NULLS LAST, rid',
  );
  // the query's answer, however long a busy machine takes to give it
  await expect(page.getByTestId('sql-status')).toContainText('65 rows', { timeout: APP_SIGNAL_MS });
  const first = page.getByTestId('sql-row').first();
  const rid = (await first.locator('.sql-cell').nth(3).textContent()) ?? '';
  expect(rid).toMatch(/^[0-9a-f]{32}$/);
  await first.click();
  await expect(page.getByTestId('run-details')).toHaveAttribute('data-kind', 'sample');
});
