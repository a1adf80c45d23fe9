import { test, expect } from '@playwright/test';
import type { ChildProcess } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { startServe } from './support/start-serve';
import { APP_SIGNAL_MS, gotoReady } from './support/app-ready';
import { hoverLaunchedKernel } from './support/hover-launched-kernel';
import { writeKinetoRankTrace } from '../bench/chrome-writer.mjs';

/**
 * A rank whose row is too big to send whole (a GPU rank of a real job holds a million kernels
 * and ops): the timeline draws the part in view at the canvas' resolution, asks again as the
 * user zooms in, and a row that cannot be fetched says why instead of staying "…" for ever.
 */
const CLI = resolve(__dirname, '../../out/main/cli.js');
// beside the suite's own server (E2E_PORT), so checkouts side by side do not collide
const PORT = Number(process.env.E2E_PORT ?? 4791) + 43;
const TOKEN = 'big-rank-token';

let servers: ChildProcess[] = [];
let tmp: string;

test.beforeAll(async () => {
  tmp = mkdtempSync(join(tmpdir(), 'te-big-rank-'));
  const dir = join(tmp, 'rank');
  mkdirSync(dir);
  // the bench's Kineto writer: 12 MB is about 40,000 kernels, launches and ops on one rank
  const trace = join(dir, 'rank-3.pt.trace.json');
  writeKinetoRankTrace(trace, 12e6, 3);
  // the same rank in a run (tests/fixtures/run), on its own clock: placed at the run's start
  const run = join(tmp, 'run');
  cpSync(resolve(__dirname, '../fixtures/run'), run, { recursive: true });
  mkdirSync(join(run, 'profile'));
  writeFileSync(
    join(run, 'profile', 'rank-3.pt.trace.json'),
    readFileSync(trace, 'utf8').replace(/,"baseTimeNanoseconds":\d+/, ''),
  );
  servers = [
    (await startServe(CLI, PORT, TOKEN, [dir])).server,
    (await startServe(CLI, PORT + 1, TOKEN, [run])).server,
  ];
});

test.afterAll(() => {
  for (const server of servers) server.kill();
  rmSync(tmp, { recursive: true, force: true });
});

const url = `http://127.0.0.1:${PORT}/?token=${TOKEN}`;
const idle = { timeout: APP_SIGNAL_MS };

test('a rank too big to send whole draws its window and sharpens as the user zooms in', async ({
  page,
}) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  await gotoReady(page, url);
  const rank = page.getByTestId('timeline-row').filter({ hasText: 'rank 3' });
  await expect(rank).toHaveAttribute('data-expanded', 'true');
  await expect(rank).toHaveAttribute('data-detail-sec', /\d/, idle);
  await expect(page.locator('body')).toHaveAttribute('data-idle', 'true', idle);
  // its lanes are named as a whole row names them, its bars drawn
  for (const lane of ['GPU 3 stream 7', 'GPU 3 stream 20', 'thread 4020 (pt_autograd_0)'])
    await expect(rank.getByTestId('lane-name').filter({ hasText: lane })).toHaveCount(1);
  expect(Number(await rank.getAttribute('data-bars'))).toBeGreaterThan(100);
  const fitted = Number(await rank.getAttribute('data-detail-sec'));

  // zoomed in (W, the pointer over the canvas): the rank is asked again for the finer window
  const canvas = page.getByTestId('timeline-canvas');
  await canvas.hover({ position: { x: 400, y: 10 } });
  for (let k = 0; k < 22; k++) await page.keyboard.press('w');
  await expect
    .poll(async () => Number(await rank.getAttribute('data-detail-sec')), idle)
    .toBeLessThan(fitted / 10);
  await expect(page.locator('body')).toHaveAttribute('data-idle', 'true', idle);

  // each kernel is there to hover at this zoom: its kind and its launch in the tooltip
  const stream = rank.getByTestId('lane-name').filter({ hasText: 'GPU 3 stream 7' });
  expect(await hoverLaunchedKernel(page, stream, 4)).toBe(true);
  await expect(page.getByTestId('tooltip').getByTestId('tooltip-category')).toHaveText(/kernel$/);
  const box = (await canvas.boundingBox())!;
  // the details count every item of the row, not only those sent
  await page.mouse.click(box.x + 2, box.y + box.height - 5);
  await rank.locator('.row-info').click();
  await expect(page.getByTestId('row-item-count')).toHaveText(/^\d+$/);
  expect(Number(await page.getByTestId('row-item-count').textContent())).toBeGreaterThan(20_000);
});

test('a row that cannot be fetched says why in its label', async ({ page }) => {
  await page.route('**/api/call', async (route) => {
    const body = route.request().postDataJSON() as { method: string };
    if (body.method !== 'getRows') return route.fallback();
    await route.fulfill({
      status: 500,
      contentType: 'application/json',
      body: JSON.stringify({ error: 'serve/call-failed: Invalid string length' }),
    });
  });
  await gotoReady(page, url);
  const rank = page.getByTestId('timeline-row').first();
  await expect(rank.getByTestId('row-error')).toHaveText(
    'could not be read: serve/call-failed: Invalid string length',
    idle,
  );
  await expect(page.locator('body')).toHaveAttribute('data-idle', 'true', idle);
});

test("a run's big rank is asked again for the run tab's window as the user zooms in", async ({
  page,
}) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.goto(`http://127.0.0.1:${PORT + 1}/?token=${TOKEN}`);
  await expect(page.getByTestId('run-view')).toHaveAttribute('data-state', 'complete', idle);
  // the GPU group is below the samples: its "show" link scrolls to it
  await page.getByTestId('run-gpu-show').click();
  const rank = page.locator('[data-testid=lane-row][data-group^="gpu-"]').first();
  await expect(rank).toHaveAttribute('data-detail-sec', /\d/, idle);
  // the run's own signal: every rank is as fine as the window shown asks
  const view = page.getByTestId('run-view');
  await expect(view).toHaveAttribute('data-gpu-detail', 'settled', idle);
  const whole = Number(await rank.getAttribute('data-detail-sec'));
  // the rank starts where the run does: zoomed in at the canvas' left edge
  await page.getByTestId('lane-canvas').hover({ position: { x: 2, y: 10 } });
  for (let k = 0; k < 10; k++) await page.keyboard.press('w');
  await expect
    .poll(async () => Number(await rank.getAttribute('data-detail-sec')), idle)
    .toBeLessThan(whole / 5);
  await expect(view).toHaveAttribute('data-gpu-detail', 'settled', idle);
  expect(Number(await rank.getAttribute('data-bars'))).toBeGreaterThan(0);
});
