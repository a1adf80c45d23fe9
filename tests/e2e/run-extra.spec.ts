import { test, expect } from '@playwright/test';
import type { ChildProcess } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { startServe } from './support/start-serve';

/**
 * The run with its train dumps and request metrics (issue 44): samples sorted by their
 * train/inference mismatch; the worst one's per-token strip, loaded on request; from it, its
 * request-metrics record. Figures: tests/fixtures/run_extra/expected_extra.json.
 */
const CLI = resolve(__dirname, '../../out/main/cli.js');
const RUN = resolve(__dirname, '../fixtures/run');
const EXTRA = resolve(__dirname, '../fixtures/run_extra');
const PORT = Number(process.env.E2E_PORT ?? 4791) + 21;
const TOKEN = 'run-extra-token';
/** a folder to save the groups view's screenshots in (light and dark, 1440x900) */
const SHOTS = process.env.RUN_EXTRA_SHOTS;

interface PerSample {
  mean_abs_dlogp: number;
  max_abs_dlogp: number;
  loss_masked_tokens: number;
  tokens: number;
}
const expected = JSON.parse(readFileSync(join(EXTRA, 'expected_extra.json'), 'utf8')) as {
  train: { files: Record<string, { per_sample: PerSample[] }> };
};
const worst = Object.values(expected.train.files)
  .flatMap((f) => f.per_sample)
  .reduce((a, b) => (b.mean_abs_dlogp > a.mean_abs_dlogp ? b : a));

let server: ChildProcess;
let dir: string;

test.beforeAll(async () => {
  // the run as one folder: slime's files, SGLang's metrics log and the train dumps beside them
  dir = mkdtempSync(join(tmpdir(), 'te-run-extra-'));
  cpSync(RUN, dir, { recursive: true });
  cpSync(join(EXTRA, 'sglang_request_metrics'), join(dir, 'sglang_request_metrics'), {
    recursive: true,
  });
  cpSync(join(EXTRA, 'train'), join(dir, 'train'), { recursive: true });
  // and its two rollout dumps on their own, as a user compares them (the run's tab holds its files)
  ({ server } = await startServe(CLI, PORT, TOKEN, [
    dir,
    join(dir, 'rollout_0.pt'),
    join(dir, 'rollout_1.pt'),
  ]));
});

test.afterAll(() => {
  server?.kill();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

test('sort samples by mismatch; the worst one shows its per-token strip and leads to its request-metrics record', async ({
  page,
}) => {
  await page.goto(`http://127.0.0.1:${PORT}/?token=${TOKEN}`);
  await expect(page.getByTestId('run-tab')).toHaveCount(1);
  // every file in: the joins are final (the app's own signals; the machine may be busy)
  await expect(page.getByTestId('run-view')).toHaveCount(1, { timeout: 120_000 });
  await expect(page.getByTestId('run-joins-partial')).toHaveCount(0, { timeout: 120_000 });
  await expect(page.getByTestId('run-counts')).toContainText('64 samples · 64 joined');
  const sort = page.getByTestId('run-sort');
  await expect(sort).toBeVisible();
  await sort.selectOption('mismatch');

  // the first row is now the worst sample: its figures in details
  await page
    .locator('[data-testid=lane-row][data-group=samples]')
    .first()
    .locator('.lane-label-name')
    .click();
  const details = page.getByTestId('run-details');
  await expect(details).toHaveAttribute('data-kind', 'sample');
  await expect(page.getByTestId('fig-mean-delta')).toHaveText(worst.mean_abs_dlogp.toFixed(4));
  await expect(page.getByTestId('fig-tokens')).toHaveText(String(worst.loss_masked_tokens));

  // the per-token strip loads on request: one cell per response token, values on hover
  await page.getByTestId('sample-token-strip-load').click();
  const strip = page.getByTestId('token-strip');
  await expect(strip).toHaveAttribute('data-tokens', String(worst.tokens));
  const canvas = page.getByTestId('token-strip-canvas');
  const box = (await canvas.boundingBox())!;
  await canvas.hover({ position: { x: 1, y: box.height / 4 } });
  await expect(page.getByTestId('token-strip-hover')).toContainText('token 0: Δ');
  await expect(page.getByTestId('token-strip-hover')).toContainText('advantage');

  // and to its request-metrics record, read again from the log with its request parsed
  const record = page.getByTestId('metrics-record').first();
  const rid = await record.getAttribute('data-rid');
  expect(rid).toMatch(/^[0-9a-f]{32}$/);
  await record.getByTestId('sample-open-metrics-record').click();
  await expect(record.getByTestId('metrics-field-id')).toHaveText(rid!);
  await expect(record.getByTestId('metrics-field-request_parameters')).toContainText(
    `"rid":"${rid}"`,
  );
});

/** The run opened and every file in: the joins are final. */
async function openWholeRun(page: import('@playwright/test').Page) {
  await page.goto(`http://127.0.0.1:${PORT}/?token=${TOKEN}`);
  await expect(page.getByTestId('run-view')).toHaveCount(1, { timeout: 120_000 });
  await expect(page.getByTestId('run-joins-partial')).toHaveCount(0, { timeout: 120_000 });
}

test("a rollout's groups view shows each group's train and server figures", async ({ page }) => {
  await openWholeRun(page);
  await page.getByTestId('file-tab').filter({ hasText: 'rollout_1.pt' }).click();
  await page.getByTestId('view-groups').click();
  const lines = page.getByTestId('group-line');
  await expect(lines).toHaveCount(8);
  // the one sample of rollout 1 with a ratio outside [0.5, 2] is row 11 (expected_extra.json):
  // only its group has a share of such tokens
  const outside = page.getByTestId('group-outside');
  await expect(outside).toHaveCount(8);
  const shares = await outside.allTextContents();
  expect(shares.filter((s) => s !== '0.0%')).toHaveLength(1);
  await expect(page.getByTestId('group-cache-hit').first()).toHaveText(/^\d+\.\d%$/);
  await expect(page.getByTestId('group-retractions').first()).toHaveText('0');
  await expect(page.getByTestId('group-staleness').first()).toHaveText('0.00 (0.0%)');
});

test("the groups view sorts by every numeric column: a run's figures in the worker, reversed on a second click", async ({
  page,
}) => {
  await openWholeRun(page);
  await page.getByTestId('file-tab').filter({ hasText: 'rollout_1.pt' }).click();
  await page.getByTestId('view-groups').click();
  const view = page.getByTestId('groups-view');
  await expect(view).toHaveAttribute('data-groups-state', 'ready');
  await expect(page.getByTestId('group-line')).toHaveCount(8);
  /** clicks a header and waits for the page of that order (the view's own signal) */
  const sortBy = async (column: string, reverse: boolean) => {
    await page.getByTestId(`groups-sort-${column.replace(':', '-')}`).click();
    await expect(view).toHaveAttribute('data-sorted-by', column);
    await expect(view).toHaveAttribute('data-sort-reverse', String(reverse));
    await expect(view).toHaveAttribute('data-groups-state', 'ready');
  };
  const values = async (testId: string) =>
    (
      await page
        .getByTestId(testId)
        .evaluateAll((cells) => cells.map((c) => c.getAttribute('data-value')))
    ).map(Number);
  const descending = (v: number[]) => [...v].sort((a, b) => b - a);

  // the largest |Δ log p| of rollout 1 is row 11's (expected_extra.json): its group first
  const worstMax = Math.max(
    ...expected.train.files['train_1.pt'].per_sample.map((p) => p.max_abs_dlogp),
  );
  await sortBy('run:maxAbsDelta', false);
  const maxes = await values('group-max-mismatch');
  expect(maxes).toEqual(descending(maxes));
  expect(maxes[0]).toBeCloseTo(worstMax, 9);
  await expect(page.locator('th[aria-sort=descending]')).toHaveText(/max\s*\|Δ log p\|/);
  if (SHOTS) {
    await page.setViewportSize({ width: 1440, height: 900 });
    // as a user sees it: the click scrolled the header into view
    await view.evaluate((el) => el.scrollTo(0, 0));
    await page.screenshot({ path: `${SHOTS}/groups-sorted-light.png` });
    await page.emulateMedia({ colorScheme: 'dark' });
    await page.screenshot({ path: `${SHOTS}/groups-sorted-dark.png` });
    await page.emulateMedia({ colorScheme: 'light' });
  }
  // again: smallest first
  await sortBy('run:maxAbsDelta', true);
  const ascending = await values('group-max-mismatch');
  expect(ascending).toEqual(descending(maxes).reverse());
  await expect(page.locator('th[aria-sort=ascending]')).toHaveText(/max\s*\|Δ log p\|/);

  // each of the run's columns orders the groups by the figure it shows
  for (const [column, cells] of [
    ['run:meanAbsDelta', 'group-mismatch'],
    ['run:decodePerToken', 'group-decode'],
    ['run:cacheHit', 'group-cache-hit'],
    ['run:outsideShare', 'group-outside'],
    ['run:retractions', 'group-retractions'],
    ['run:staleMean', 'group-staleness'],
  ]) {
    await sortBy(column, false);
    const shown = await values(cells);
    expect(shown, column).toEqual(descending(shown));
  }
  // and the worker's own columns by a header too: the slowest group first
  await sortBy('wall', false);
  const walls = await page
    .getByTestId('group-line')
    .evaluateAll((rows) => rows.map((r) => Number(r.getAttribute('data-wall-sec'))));
  expect(walls).toEqual(descending(walls));
});

test("comparing the run's two rollouts says what the train dumps and the log show", async ({
  page,
}) => {
  await openWholeRun(page);
  await page.getByTestId('file-tab').filter({ hasText: 'rollout_0.pt' }).click();
  await page.getByTestId('compare-button').click();
  await page.getByTestId('compare-menu').getByRole('menuitem', { name: 'rollout_1.pt' }).click();
  const answer = page.getByTestId('compare-answer');
  await expect(answer).toContainText(
    "The prefix cache served 25.0% of B's prompt tokens, against 16.7% of A's.",
  );
  await expect(answer).toContainText("0.7% of B's tokens had an importance ratio outside [0.5, 2]");
});
