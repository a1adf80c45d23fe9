import { test, expect, type Locator, type Page } from '@playwright/test';
import type { ChildProcess } from 'node:child_process';
import { copyFileSync, cpSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { startServe } from './support/start-serve';

/**
 * A run with a GPU profile (issue 45): the profile's ranks are a lane group under the samples.
 * A trace with baseTimeNanoseconds (run_gpu/, placed inside rollout 0) is on the run's clock: a
 * kernel's hover time lies inside the sample running above it. A trace without it (gpu/rank-1)
 * is on its own clock: the run says so and offers the offset field and the group's drag.
 */
const CLI = resolve(__dirname, '../../out/main/cli.js');
const FIXTURES = resolve(__dirname, '../fixtures');
// beside the suite's own server (E2E_PORT), so checkouts side by side do not collide
const PORT = Number(process.env.E2E_PORT ?? 4791) + 30;
const TOKEN = 'run-gpu-token';
const SHOTS = process.env.RUN_GPU_SHOTS;

let servers: ChildProcess[] = [];
let tmp = '';

/** tests/fixtures/run with one GPU trace in a `profile/` folder of its own */
function runWith(name: string, trace: string): string {
  const dir = join(tmp, name);
  cpSync(join(FIXTURES, 'run'), dir, { recursive: true });
  mkdirSync(join(dir, 'profile'));
  copyFileSync(join(FIXTURES, trace), join(dir, 'profile', trace.split('/').pop()!));
  return dir;
}

test.beforeAll(async () => {
  tmp = mkdtempSync(join(tmpdir(), 'run-gpu-'));
  const epoch = runWith('epoch', 'run_gpu/rank-0.trace.json.gz');
  const own = runWith('own', 'gpu/rank-1.json.gz');
  servers = [
    (await startServe(CLI, PORT, TOKEN, [epoch])).server,
    (await startServe(CLI, PORT + 1, TOKEN, [own])).server,
  ];
});

test.afterAll(() => {
  for (const server of servers) server.kill();
  if (tmp) rmSync(tmp, { recursive: true, force: true });
});

async function openRun(page: Page, port: number) {
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.goto(`http://127.0.0.1:${port}/?token=${TOKEN}`);
  // the run's own signal that every file is in (RunView's data-state)
  await expect(page.getByTestId('run-view')).toHaveAttribute('data-state', 'complete', {
    timeout: 120_000,
  });
}

const gpuRows = (page: Page) => page.locator('[data-testid=lane-row][data-group^="gpu-"]');

/** "1:02.345678" (the run's clock) as seconds */
const clockSec = (text: string) =>
  text
    .trim()
    .split(':')
    .reduce((sum, part) => sum * 60 + Number(part), 0);

/** A span tooltip's "start → end (duration)" as run seconds. */
async function tooltipTimes(page: Page): Promise<{ start: number; end: number }> {
  const text = (await page.getByTestId('tooltip').textContent()) ?? '';
  const match = /(-?\d+:[\d:.]+) → (-?\d+:[\d:.]+)/.exec(text);
  if (!match) throw new Error(`no times in the tooltip: ${text}`);
  return { start: clockSec(match[1]), end: clockSec(match[2]) };
}

/**
 * Moves the pointer along y (page pixels) until the tooltip says what `wanted` accepts; from
 * `from` to the canvas' right edge. The bars are on a canvas: hover is how a user finds them.
 */
async function hoverAlong(
  page: Page,
  y: number,
  wanted: (tooltip: Locator) => Promise<boolean>,
  from?: number,
  to?: number,
): Promise<number> {
  const canvas = (await page.getByTestId('lane-canvas').boundingBox())!;
  const tooltip = page.getByTestId('tooltip');
  for (let x = from ?? canvas.x + 1; x < (to ?? canvas.x + canvas.width); x += 2) {
    await page.mouse.move(x, y);
    if ((await tooltip.isVisible()) && (await wanted(tooltip))) return x;
  }
  throw new Error('no bar along the lane has that hover');
}

async function laneY(row: Locator, name: string | RegExp): Promise<number> {
  const lane = row.getByTestId('lane-name').filter({ hasText: name }).first();
  await lane.scrollIntoViewIfNeeded();
  const box = (await lane.boundingBox())!;
  return box.y + box.height / 2;
}

test('a GPU profile with baseTimeNanoseconds draws its ranks under the samples on one clock', async ({
  page,
}) => {
  await openRun(page, PORT);
  await expect(page.getByTestId('run-gpu-clock')).toHaveText(/rank 0 epoch clock/);
  await expect(page.getByTestId('run-gpu-offset')).toHaveCount(0);
  // the samples are many: the profile's name in the clocks line brings its ranks into view
  await page.getByTestId('run-gpu-show').click();
  const rank = gpuRows(page);
  await expect(rank).toHaveCount(1);
  await expect(rank).toHaveClass(/selected/);
  // the groups' order: trainer, samples, then the profile's rank with its threads and streams
  const groups = page.getByTestId('lane-group');
  await expect(groups.last()).toHaveAttribute('data-group', /^gpu-\d+$/);
  await expect(groups.last().getByTestId('lane-group-note')).toHaveText('epoch clock');
  await expect(rank).toHaveAttribute('data-mark', 'epoch');
  await expect(rank.locator('.lane-label-name')).toHaveText('rank 0');
  await expect(rank.locator('.lane-label-detail')).toHaveText('epoch clock');
  // its first lane's thread shares the rank's line (it was hidden under the rank's label)
  await expect(rank.getByTestId('lane0-name')).toHaveText(/^thread 23695 \(python/);
  for (const stream of [7, 23, 25, 84, 203])
    await expect(
      rank.getByTestId('lane-name').filter({ hasText: `GPU 0 stream ${stream}` }),
    ).toHaveCount(1);
  // kernels by kind in the legend, most first: rank 0's 1154 kernels (10 of them NCCL's), 40
  // memcpys and 10 memsets (gpu/README.md)
  await expect(page.getByTestId('legend-category')).toHaveText([
    /^computation kernels 1144\b/,
    /^memory kernels 50\b/,
    /^communication kernels 10\b/,
  ]);
  if (SHOTS) {
    await page.screenshot({ path: `${SHOTS}/run-gpu-light.png` });
    await page.emulateMedia({ colorScheme: 'dark' });
    await page.screenshot({ path: `${SHOTS}/run-gpu-dark.png` });
    await page.emulateMedia({ colorScheme: 'light' });
  }

  // a kernel on stream 7: its kind, its launch, and its time on the run's clock
  const streamY = await laneY(rank, 'GPU 0 stream 7');
  const kernelX = await hoverAlong(
    page,
    streamY,
    async (t) => (await t.getByTestId('tooltip-category').count()) > 0,
  );
  await expect(page.getByTestId('tooltip-category')).toHaveText(
    /^(computation|communication|memory) kernel$/,
  );
  await expect(page.getByTestId('tooltip-flow-from')).toHaveText(/^← from cuda\w+ at /);
  // hovered, its launch-to-kernel arrow is drawn (a rank draws none unasked: too many)
  await expect.poll(async () => Number(await rank.getAttribute('data-links'))).toBeGreaterThan(0);
  // clicked: its details; F fits it, so its times read to the microsecond
  await page.mouse.click(kernelX, streamY);
  await expect(page.getByTestId('run-details')).toHaveAttribute('data-kind', 'gpu');
  await page.keyboard.press('f');
  const canvas = (await page.getByTestId('lane-canvas').boundingBox())!;
  const middle = canvas.x + canvas.width / 2;
  await page.mouse.move(middle, streamY);
  await expect(page.getByTestId('tooltip-category')).toBeVisible();
  const kernel = await tooltipTimes(page);
  expect(kernel.end).toBeGreaterThan(kernel.start);

  // a sample running at that moment (the same x): the kernel's span lies inside its span
  const scroller = page.locator('.lane-timeline .timeline-scroll');
  const view = (await scroller.boundingBox())!;
  const samples = page.locator('[data-testid=lane-row][data-group=samples]');
  let found: { start: number; end: number } | null = null;
  for (let top = 0; !found; top += view.height / 2) {
    await scroller.evaluate((el, y) => (el.scrollTop = y), top);
    for (const row of await samples.all()) {
      const box = await row.boundingBox();
      if (!box || box.y < view.y || box.y + 10 > view.y + view.height) continue;
      await page.mouse.move(middle, box.y + 10);
      if (!(await page.getByTestId('tooltip').isVisible())) continue;
      const sample = await tooltipTimes(page);
      if (sample.start <= kernel.start && kernel.end <= sample.end) found = sample;
    }
    if (top > (await scroller.evaluate((el) => el.scrollHeight))) break;
  }
  expect(found, `a sample spans the kernel at ${kernel.start} s`).not.toBeNull();

  // and the rank's row starts where its baseTimeNanoseconds puts it: 1787648406.500 s, 1.430 s
  // after rollout 0's first sample began (1787648405.070 s, run/README.md), read off each row's
  // fitted window (F: the row's extent with a 3% margin each side)
  const fittedStart = async (row: Locator) => {
    await row.scrollIntoViewIfNeeded();
    await row.locator('.lane-label-name').click();
    const axis = page.getByTestId('time-axis');
    const before = await axis.getAttribute('data-start');
    await page.keyboard.press('f');
    await expect(axis).not.toHaveAttribute('data-start', before!);
    const a = Number(await axis.getAttribute('data-start'));
    const b = Number(await axis.getAttribute('data-end'));
    return a + (0.03 * (b - a)) / 1.06;
  };
  await scroller.evaluate((el) => (el.scrollTop = 0));
  const firstSample = await fittedStart(samples.first());
  await page.getByTestId('run-gpu-show').click();
  const rankStart = await fittedStart(rank);
  expect(rankStart - firstSample).toBeCloseTo(1.43, 2);
  if (SHOTS) {
    // the rank fitted, a kernel selected: its launch arrow
    await page.mouse.click(middle, streamY);
    await page.keyboard.press('f');
    await page.screenshot({ path: `${SHOTS}/run-gpu-kernel-light.png` });
  }
});

test('a GPU profile without baseTimeNanoseconds is on its own clock, shifted by hand', async ({
  page,
}) => {
  await openRun(page, PORT + 1);
  await expect(page.getByTestId('run-gpu-clock')).toHaveText(/rank 1 own clock/);
  const offset = page.getByTestId('run-gpu-offset');
  await expect(offset).toHaveValue('0');
  await page.getByTestId('run-gpu-show').click();
  const rank = gpuRows(page);
  await expect(rank).toHaveAttribute('data-mark', 'own');
  const group = page.locator('[data-testid=lane-group][data-group^="gpu-"]');
  await expect(group.getByTestId('lane-group-note')).toHaveText(/own clock \+0\.000 s/);

  // fit the rank's row (F): it starts at the run's start, then 2 s later once shifted
  await rank.scrollIntoViewIfNeeded();
  await rank.locator('.lane-label-head').click();
  await page.keyboard.press('f');
  const axis = page.getByTestId('time-axis');
  const startOf = async () => Number(await axis.getAttribute('data-start'));
  const before = await startOf();
  await offset.fill('2000');
  await expect(group.getByTestId('lane-group-note')).toHaveText(/own clock \+2\.000 s/);
  await page.keyboard.press('Escape');
  await rank.locator('.lane-label-head').click();
  await page.keyboard.press('f');
  await expect.poll(async () => (await startOf()) - before).toBeCloseTo(2, 3);

  // dragging the group's title right moves it later: the offset field follows
  const title = (await group.boundingBox())!;
  await page.mouse.move(title.x + 40, title.y + title.height / 2);
  await page.mouse.down();
  await page.mouse.move(title.x + 140, title.y + title.height / 2, { steps: 5 });
  await page.mouse.up();
  await expect.poll(async () => Number(await offset.inputValue())).toBeGreaterThan(2000);
  if (SHOTS) {
    await page.screenshot({ path: `${SHOTS}/run-gpu-own-light.png` });
    await page.emulateMedia({ colorScheme: 'dark' });
    await page.screenshot({ path: `${SHOTS}/run-gpu-own-dark.png` });
  }
});
