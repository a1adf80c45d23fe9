import { expect, type Page } from '@playwright/test';
import { pathToFileURL } from 'node:url';

/**
 * Opens a shared report from file://, every other request refused and logged: the requests it
 * made (a report makes none, issue 47), once its header shows.
 */
export async function openReport(page: Page, path: string): Promise<string[]> {
  const url = pathToFileURL(path).href;
  const requests: string[] = [];
  page.on('request', (request) => {
    if (request.url() !== url) requests.push(request.url());
  });
  await page
    .context()
    .route('**/*', (route) => (route.request().url() === url ? route.continue() : route.abort()));
  await page.goto(url);
  await expect(page.getByTestId('report-header')).toBeVisible();
  return requests;
}

/**
 * A report of tests/fixtures/run (tests/fixtures/run/README.md) shows the run as the app does:
 * its files, the run tab complete and joined, trainer and sample lanes, a sample's SGLang
 * request under it, and each file's own tab.
 */
export async function expectRunReport(page: Page): Promise<void> {
  const run = page.getByTestId('report-run');
  await expect(run.locator('summary')).toHaveText('run run: 7 files joined');
  await run.locator('summary').click();
  await expect(run.getByTestId('report-file')).toHaveCount(7);
  await expect(run.getByTestId('report-file').first()).toContainText('run/comm_timeline/');
  // the run tab as the app shows the folder (run.spec.ts): complete, joined, its lanes drawn
  await expect(page.getByTestId('run-view')).toHaveAttribute('data-state', 'complete');
  await expect(page.getByTestId('run-tab')).toHaveCount(1);
  await expect(page.getByTestId('run-counts')).toHaveText(
    '64 samples · 64 joined to 65 SGLang requests · 1 request without sample · 0 samples without request · 0 stale',
  );
  const lanes = (group: string) => page.locator(`[data-testid=lane-row][data-group=${group}]`);
  await expect(lanes('trainer')).toHaveCount(4);
  await expect(lanes('trainer').locator('.lane-label-head')).toHaveText([
    /^trainer 0\s*comm_timeline\s*weight_convert$/,
    /^trainer 1\s*comm_timeline\s*weight_convert$/,
    /^trainer 0\s*comm_timeline_v1\s*weight_convert$/,
    /^trainer 1\s*comm_timeline_v1\s*weight_convert$/,
  ]);
  for (const row of await lanes('trainer').all())
    await expect(row).toHaveAttribute('data-bars', '66');
  await expect(page.locator('[data-testid=lane-group][data-group=samples]')).toHaveText(
    /^Samples\s*64$/,
  );
  // a sample opened: its SGLang request's lanes under it, read from the report's rows
  const sample = lanes('samples').nth(3);
  await sample.getByTestId('lane-toggle').click();
  const request = page.locator('[data-testid=lane-row][data-key^="v:"]');
  await expect(request).toHaveCount(1);
  await expect(request.getByTestId('lane-name')).toContainText(['Decode Scheduler TP0']);
  // and each file of the run has its own tab as well
  await expect(page.getByTestId('file-tab')).toHaveCount(7);
  // each named apart: a trainer file of one name in two folders shows its folder
  const tabNames = await page.getByTestId('file-tab').locator('.tab-name').allTextContents();
  expect(new Set(tabNames).size).toBe(7);
  expect(tabNames).toEqual(
    expect.arrayContaining([
      'comm_timeline/slime-trainer-0.jsonl',
      'comm_timeline_v1/slime-trainer-0.jsonl',
      'rollout_0.pt',
    ]),
  );
  // seven files but no compare in the snapshot, and no SQL engine: neither is offered
  await expect(page.getByTestId('run-query')).toHaveCount(0);
  await expect(page.getByTestId('compare-button')).toBeHidden();
}
