import { test, expect } from '@playwright/test';
import type { ChildProcess } from 'node:child_process';
import { startServe } from './support/start-serve';
import { spawnSync } from 'node:child_process';
import { copyFileSync, cpSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { writeSlimeDump } from '../bench/slime-dump-writer.mjs';
import { APP_SIGNAL_MS, fileOpen } from './support/app-ready';

/**
 * A run's folder of rollout dumps opens as trends (issue 21): one dot per rollout per figure,
 * evaluations as their own series, values with units on hover, a click opens that rollout,
 * two picked ones compare, a dump still being written shows as incomplete. A run folder with
 * train dumps and request metrics (issue 44) shows its trends from the run tab, with each
 * rollout's mismatch, staleness, cache and DP figures as `trends RUN --json` gives them.
 */
const CLI = resolve(__dirname, '../../out/main/cli.js');
// beside the suite's own server (E2E_PORT), so checkouts side by side do not collide
const PORT = Number(process.env.E2E_PORT ?? 4791) + 7;
const TOKEN = 'trends-token';

test.describe('a folder of rollout dumps', () => {
  let run: string;
  let cache: string;
  let server: ChildProcess;

  test.beforeAll(async () => {
    run = mkdtempSync(join(tmpdir(), 'te-run-'));
    cache = mkdtempSync(join(tmpdir(), 'te-run-cache-'));
    for (let id = 0; id < 4; id++) {
      writeSlimeDump(join(run, `rollout_${id}.pt`), 400_000, 200, Infinity, {
        rolloutId: id,
        seed: 10 + id,
      });
    }
    writeSlimeDump(join(run, 'eval_2.pt'), 200_000, 200, Infinity, { rolloutId: 2, seed: 99 });
    copyFileSync(resolve(__dirname, '../fixtures/slime/truncated.pt'), join(run, 'rollout_4.pt'));
    writeFileSync(join(run, 'notes.md'), 'run notes\n');
    ({ server } = await startServe(CLI, PORT, TOKEN, [run], {
      ...process.env,
      TRACE_EXPLORER_CACHE_DIR: cache,
    }));
  });

  test.afterAll(() => {
    server?.kill();
    rmSync(run, { recursive: true, force: true });
    rmSync(cache, { recursive: true, force: true });
  });

  test('a folder of dumps opens as trends; a dot opens its rollout; two picked compare', async ({
    page,
  }) => {
    await page.goto(`http://127.0.0.1:${PORT}/?token=${TOKEN}`);
    await expect(page.getByTestId('trends-tab')).toHaveCount(1);
    // the counts show once every dump is read (the app's own end of reading)
    await expect(page.getByTestId('trends-counts')).toContainText('4 rollouts · 1 evals', {
      timeout: APP_SIGNAL_MS,
    });
    await expect(page.getByTestId('trends-notices')).toContainText('rollout_4.pt: incomplete');
    await expect(page.getByTestId('trends-notices')).toContainText('1 file skipped');

    const wall = page.locator('[data-testid="trend-chart"][data-metric="rollout/wall_time_sec"]');
    await expect(wall.getByTestId('trend-point')).toHaveCount(5);
    const names = await wall
      .getByTestId('trend-point')
      .evaluateAll((dots) => dots.map((d) => d.getAttribute('data-name')));
    expect(names.sort()).toEqual([
      'eval_2.pt',
      'rollout_0.pt',
      'rollout_1.pt',
      'rollout_2.pt',
      'rollout_3.pt',
    ]);

    // the metric picker adds a chart
    await expect(page.locator('[data-testid="trend-chart"][data-metric="reward/std"]')).toHaveCount(
      0,
    );
    await page.locator('[data-testid="trend-metric"][data-metric="reward/std"]').check();
    await expect(page.locator('[data-testid="trend-chart"][data-metric="reward/std"]')).toHaveCount(
      1,
    );

    // hover: the value with its unit
    const p50 = page.locator(
      '[data-testid="trend-chart"][data-metric="perf/request/e2e_latency/median"]',
    );
    await p50.locator('[data-name="rollout_1.pt"]').hover();
    await expect(p50.getByTestId('trend-tooltip')).toContainText(
      /rollout_1\.pt · rollout 1\s*e2e latency p50: [\d.]+ s/,
    );

    // a click opens that rollout as a file tab
    await wall.locator('[data-name="rollout_2.pt"]').click();
    await fileOpen(page, 'rollout_2.pt');
    await expect(page.getByTestId('trends-view')).toHaveCount(0);

    // back to the trends, which stay once the rollout's open is done (it showed from its first rows)
    await page.getByTestId('trends-tab').click();
    await expect(page.getByTestId('opening-tab')).toHaveCount(0);
    await expect(page.getByTestId('trends-view')).toBeVisible();
    // shift+click two dots, then Compare
    await wall.locator('[data-name="rollout_0.pt"]').click({ modifiers: ['Shift'] });
    await wall.locator('[data-name="rollout_3.pt"]').click({ modifiers: ['Shift'] });
    await expect(page.getByTestId('trends-picked')).toContainText('rollout_0.pt and rollout_3.pt');
    await page.getByTestId('trends-compare').click();
    await expect(page.getByTestId('compare-view')).toBeVisible();
    await expect(page.getByTestId('file-tab')).toHaveCount(3);
  });
});

test.describe('a run with train dumps and request metrics', () => {
  const RUN_PORT = Number(process.env.E2E_PORT ?? 4791) + 26;
  /** a folder to save the trends' screenshots in (light and dark, 1440x900) */
  const SHOTS = process.env.TRENDS_SHOTS;
  let dir: string;
  let runCache: string;
  let runServer: ChildProcess;
  /** `trends RUN --json`'s points: what the app must show */
  let cli: {
    name: string;
    mismatch: { meanAbsDelta: number; meanRatio: number };
    tokensPerDpRank: { tokens: number }[];
  }[];

  test.beforeAll(async () => {
    // the run as one folder: slime's files, SGLang's metrics log and the train dumps beside them
    dir = mkdtempSync(join(tmpdir(), 'te-trends-extra-'));
    runCache = mkdtempSync(join(tmpdir(), 'te-trends-extra-cache-'));
    const fixtures = resolve(__dirname, '../fixtures');
    cpSync(join(fixtures, 'run'), dir, { recursive: true });
    for (const sub of ['sglang_request_metrics', 'train'])
      cpSync(join(fixtures, 'run_extra', sub), join(dir, sub), { recursive: true });
    const env = { ...process.env, TRACE_EXPLORER_CACHE_DIR: runCache };
    const trends = spawnSync(process.execPath, [CLI, 'trends', dir, '--json'], {
      encoding: 'utf8',
      env,
    });
    expect(trends.status, trends.stderr).toBe(0);
    cli = (JSON.parse(trends.stdout) as { points: typeof cli }).points;
    ({ server: runServer } = await startServe(CLI, RUN_PORT, TOKEN, [dir], env));
  });

  test.afterAll(() => {
    runServer?.kill();
    for (const d of [dir, runCache]) if (d) rmSync(d, { recursive: true, force: true });
  });

  test("the run tab's Trends: its mismatch figures per rollout, as trends RUN gives them", async ({
    page,
  }) => {
    await page.goto(`http://127.0.0.1:${RUN_PORT}/?token=${TOKEN}`);
    await expect(page.getByTestId('run-view')).toHaveAttribute('data-state', 'complete', {
      timeout: APP_SIGNAL_MS,
    });
    if (SHOTS) {
      // the run tab's header with its Trends button
      await page.setViewportSize({ width: 1440, height: 900 });
      await page.screenshot({ path: `${SHOTS}/run-tab-trends-button-light.png` });
    }
    await page.getByTestId('run-trends').click();
    await expect(page.getByTestId('trends-tab')).toHaveCount(1);
    await expect(page.getByTestId('trends-counts')).toContainText('2 rollouts · 0 evals', {
      timeout: APP_SIGNAL_MS,
    });
    // skipped: the SGLang trace and the fixtures' notes (README.md, run_plan.json,
    // expected_counts.json), not the train/, metrics and timeline folders the figures read
    const notices = page.getByTestId('trends-notices');
    await expect(notices).toContainText('4 files skipped');
    await notices.locator('summary').click();
    await expect(notices).toContainText('sglang_otel_trace.json: not a rollout dump');
    await expect(notices).not.toContainText('train:');
    const value = async (locator: ReturnType<typeof page.locator>) =>
      Number(await locator.getAttribute('data-value'));

    // mean |Δ log p| is charted at once; the mean importance ratio is picked
    const ratioKey = 'train/mismatch_mean_ratio';
    const ratio = page.locator(`[data-testid="trend-chart"][data-metric="${ratioKey}"]`);
    await expect(ratio).toHaveCount(0);
    await page.locator(`[data-testid="trend-metric"][data-metric="${ratioKey}"]`).check();
    await expect(ratio.getByTestId('trend-point')).toHaveCount(2);
    for (const point of cli) {
      const dot = ratio.locator(`[data-name="${point.name}"]`);
      expect(await value(dot)).toBeCloseTo(point.mismatch.meanRatio, 9);
    }

    // the table: a row per rollout, mean |Δ log p| and each DP rank's tokens
    const table = page.getByTestId('trends-run-table');
    for (const point of cli) {
      const row = table.locator(`tr[data-name="${point.name}"]`);
      const mean = row.locator('[data-metric="train/mismatch_mean_abs_dlogp"]');
      expect(await value(mean)).toBeCloseTo(point.mismatch.meanAbsDelta, 9);
      await expect(row.locator('[data-metric="tokensPerDpRank"]')).toHaveText(
        point.tokensPerDpRank.map((r) => r.tokens).join(' / '),
      );
    }

    // the DP balance: on hover, each rank's tokens
    const dpKey = 'train/dp_rank_tokens_max_over_mean';
    await page.locator(`[data-testid="trend-metric"][data-metric="${dpKey}"]`).check();
    const dp = page.locator(`[data-testid="trend-chart"][data-metric="${dpKey}"]`);
    await dp.locator(`[data-name="${cli[0].name}"]`).hover();
    await expect(dp.getByTestId('trend-note')).toHaveText(
      `tokens per DP rank: ${cli[0].tokensPerDpRank.map((r) => r.tokens).join(' / ')}`,
    );
    if (SHOTS) {
      await page.setViewportSize({ width: 1440, height: 900 });
      // as a user opens it: the table and the first charts
      await page.getByTestId('trends-view').evaluate((el) => el.scrollTo(0, 0));
      await page.screenshot({ path: `${SHOTS}/trends-run-light.png` });
      await page.emulateMedia({ colorScheme: 'dark' });
      await page.screenshot({ path: `${SHOTS}/trends-run-dark.png` });
      await dp.locator(`[data-name="${cli[0].name}"]`).hover();
      await page.screenshot({ path: `${SHOTS}/trends-run-hover-dark.png` });
      await page.emulateMedia({ colorScheme: 'light' });
    }
  });
});
