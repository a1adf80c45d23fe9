import { test, expect } from '@playwright/test';
import type { ChildProcess } from 'node:child_process';
import { startServe } from './support/start-serve';
import { copyFileSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { writeSlimeDump } from '../bench/slime-dump-writer.mjs';
import { APP_SIGNAL_MS, fileOpen } from './support/app-ready';

/**
 * A run's folder of rollout dumps opens as trends (issue 21): one dot per rollout per figure,
 * evaluations as their own series, values with units on hover, a click opens that rollout,
 * two picked ones compare, a dump still being written shows as incomplete.
 */
const CLI = resolve(__dirname, '../../out/main/cli.js');
// beside the suite's own server (E2E_PORT), so checkouts side by side do not collide
const PORT = Number(process.env.E2E_PORT ?? 4791) + 7;
const TOKEN = 'trends-token';

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
