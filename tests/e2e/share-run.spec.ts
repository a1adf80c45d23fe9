import { test, expect } from '@playwright/test';
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { startServe } from './support/start-serve';
import { expectRunReport, openReport } from './support/open-report';

// Issue 47: Share ▾ on a run tab downloads the run's report (as `report RUN_FOLDER` makes it),
// which opens from file:// on its run tab with the run's lanes, not a report per file.
const CLI = resolve(__dirname, '../../out/main/cli.js');
const RUN = resolve(__dirname, '../fixtures/run');
// beside the suite's own server (E2E_PORT), so checkouts side by side do not collide
const PORT = Number(process.env.E2E_PORT ?? 4791) + 40;
const TOKEN = 'share-run-token';

let server: ChildProcess;

test.beforeAll(async () => {
  ({ server } = await startServe(CLI, PORT, TOKEN, [RUN]));
});

test.afterAll(() => {
  server?.kill();
});

test("Share ▾ on a run tab downloads the run's report: it opens offline on the run tab and its lanes", async ({
  page,
}) => {
  await page.goto(`http://127.0.0.1:${PORT}/?token=${TOKEN}`);
  // the run's own signal that every file is in: Share is offered from then on
  await expect(page.getByTestId('run-view')).toHaveAttribute('data-state', 'complete', {
    timeout: 120_000,
  });
  await page.getByTestId('share-button').click();
  await expect(page.getByTestId('share-report')).toHaveText('Report of this run (.html)');
  await expect(page.getByTestId('share-with-content')).not.toBeChecked();
  const [download] = await Promise.all([
    // made in the files' workers, then the page: seconds on a busy machine
    page.waitForEvent('download', { timeout: 120_000 }),
    page.getByTestId('share-report').click(),
  ]);
  expect(await download.failure()).toBeNull();
  expect(download.suggestedFilename()).toBe('run.report.html');

  // saved under its own name (Playwright keeps a download without .html), opened offline
  const saved = join(mkdtempSync(join(tmpdir(), 'share-run-')), download.suggestedFilename());
  await download.saveAs(saved);
  const report = await page.context().newPage();
  const requests = await openReport(report, saved);
  await expect(report.getByTestId('report-content')).toHaveText(/left out/);
  await expectRunReport(report);
  expect(requests).toEqual([]);
});
