import { test, expect, type Locator, type Page } from '@playwright/test';
import type { ChildProcess } from 'node:child_process';
import { startServe } from './support/start-serve';
import {
  copyFileSync,
  cpSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  rmSync,
  statSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join, resolve } from 'node:path';
import { writeSlimeDump } from '../bench/slime-dump-writer.mjs';

/**
 * A run folder (issue 20) opens as one run tab: trainer lanes above the samples, rollouts and
 * weight versions on the axis; a sample leads to its SGLang request (server lanes under it, a
 * flow arrow, the server's breakdown) and back; the aborted request without a sample leads to the
 * sample that gave up on it. Counts: tests/fixtures/run/README.md.
 */
const CLI = resolve(__dirname, '../../out/main/cli.js');
const RUN = resolve(__dirname, '../fixtures/run');
// beside the suite's own server (E2E_PORT), so checkouts side by side do not collide
const PORT = Number(process.env.E2E_PORT ?? 4791) + 20;
const TOKEN = 'run-token';

let server: ChildProcess;

test.beforeAll(async () => {
  ({ server } = await startServe(CLI, PORT, TOKEN, [RUN]));
});

test.afterAll(() => {
  server?.kill();
});

/** Spans of `name` the run's rollouts started (tests/fixtures/run/expected_counts.json). */
function spansStarted(name: string): number {
  const expected = JSON.parse(readFileSync(join(RUN, 'expected_counts.json'), 'utf8')) as {
    rollouts: Record<string, { spans_started: Record<string, number> }>;
  };
  return Object.values(expected.rollouts).reduce((n, r) => n + (r.spans_started[name] ?? 0), 0);
}

/** Lane rows of one group of the run's timeline. */
const laneRows = (page: Page, group: string) =>
  page.locator(`[data-testid=lane-row][data-group=${group}]`);

/** The run timeline's window, in seconds of the run's clock. */
async function runWindow(page: Page) {
  const axis = page.getByTestId('time-axis');
  const start = Number(await axis.getAttribute('data-start'));
  const end = Number(await axis.getAttribute('data-end'));
  return { start, end, span: end - start };
}

/**
 * Moves the pointer along a lane (y, page pixels) until the tooltip names what `wanted` accepts;
 * returns where. The bars are on a canvas: the hover is the way a user finds them too.
 */
async function hoverAlong(
  page: Page,
  y: number,
  wanted: (tooltip: string) => boolean,
): Promise<{ x: number; text: string }> {
  const canvas = (await page.getByTestId('lane-canvas').boundingBox())!;
  const tooltip = page.getByTestId('tooltip');
  for (let x = canvas.x + 1; x < canvas.x + canvas.width; x += 2) {
    await page.mouse.move(x, y);
    if (!(await tooltip.isVisible())) continue;
    const text = (await tooltip.textContent()) ?? '';
    if (wanted(text)) return { x, text };
  }
  throw new Error('no bar along the lane has that hover');
}

/** The y (page pixels) of the lane named `name` of an expanded lane row. */
async function laneY(row: Locator, name: string | RegExp): Promise<number> {
  const lane = row.getByTestId('lane-name').filter({ hasText: name }).first();
  const box = (await lane.boundingBox())!;
  return box.y + box.height / 2;
}

/**
 * The run's own signal that every file is in (RunView's data-state), not a count and a clock:
 * on a busy machine the run may still be opening when the page first shows it (issue 49).
 */
async function runComplete(page: Page) {
  await expect(page.getByTestId('run-view')).toHaveAttribute('data-state', 'complete', {
    timeout: 120_000,
  });
}

test('a run folder opens as one tab; a sample leads to its SGLang request and back', async ({
  page,
}) => {
  await page.goto(`http://127.0.0.1:${PORT}/?token=${TOKEN}`);
  await runComplete(page);
  // before any scroll the legend counts the whole run (each file's own count of its bars), not
  // the sample rows fetched so far (53 of 65 here, growing as one scrolled): every
  // sglang_generate span the rollouts started, as the fixture's checker counted them
  await expect(
    page.locator('[data-testid=legend] .legend-entry[data-name=sglang_generate] .legend-name'),
  ).toHaveText(`sglang_generate ${spansStarted('sglang_generate')}`);
  await expect(page.getByTestId('run-tab')).toHaveCount(1);
  await expect(page.getByTestId('file-tab')).toHaveCount(0);
  await expect(page.getByTestId('run-counts')).toHaveText(
    '64 samples · 64 joined to 65 SGLang requests · 1 request without sample · 0 samples without request · 0 stale',
    // every file read and joined: seconds on a loaded machine
    { timeout: 60_000 },
  );
  // both timeline schemas of 2 ranks: 4 lane groups, 2 x 123 + 2 x 105 records
  await expect(page.getByTestId('run-trainer-summary')).toContainText('4 files, 456 records');
  const trainer = laneRows(page, 'trainer');
  await expect(trainer).toHaveCount(4);
  // each named by its role and rank and the folder that tells the two schemas apart, then
  // its first lane's name (the others' under it)
  await expect(trainer.locator('.lane-label-head')).toHaveText([
    /^trainer 0\s*comm_timeline\s*weight_convert$/,
    /^trainer 1\s*comm_timeline\s*weight_convert$/,
    /^trainer 0\s*comm_timeline_v1\s*weight_convert$/,
    /^trainer 1\s*comm_timeline_v1\s*weight_convert$/,
  ]);
  // 66 spans per timeline file, all drawn at fit
  for (const row of await trainer.all()) await expect(row).toHaveAttribute('data-bars', '66');
  await expect(page.getByTestId('run-rollout-band')).toHaveCount(2);
  await expect(page.getByTestId('run-rollout-band').first()).toContainText('rollout 0 · v1');
  await expect(page.getByTestId('run-version-mark')).toHaveCount(3);
  // the axis counts from the run's start
  await expect(page.getByTestId('axis-tick').first()).toHaveText('0:00');

  // a sample: open it to its own lanes and its server request's threads under it
  const samples = laneRows(page, 'samples');
  // the group's title counts them all (only the rows in view have labels)
  const samplesGroup = page.locator('[data-testid=lane-group][data-group=samples]');
  await expect(samplesGroup).toHaveText(/^Samples\s*64$/);
  const row = samples.nth(3);
  const key = (await row.getAttribute('data-key'))!;
  await row.getByTestId('lane-toggle').click();
  const request = page.locator('[data-testid=lane-row][data-key^="v:"]');
  await expect(request).toHaveCount(1);
  const rid = (await request.getAttribute('data-key'))!.split(':')[3];
  expect(rid).toMatch(/^[0-9a-f]{32}$/);
  await expect(request.getByTestId('lane-name')).toContainText(['Decode Scheduler TP0']);

  // fit the request (F on the selected row), hover a decode scheduler span: its thread and name
  await request.click();
  const details = page.getByTestId('run-details');
  await expect(details).toHaveAttribute('data-kind', 'server');
  await expect(page.getByTestId('run-details-rid')).toHaveText(rid);
  const stages = details.getByTestId('run-stages');
  for (const stage of ['router', 'tokenizer', 'queue', 'prefill', 'KV transfer', 'decode']) {
    await expect(stages).toContainText(stage);
  }
  await page.keyboard.press('f');
  await expect.poll(async () => (await runWindow(page)).span).toBeLessThan(10);
  const decodeLane = await laneY(request, 'Decode Scheduler TP0');
  const server = await hoverAlong(page, decodeLane, (t) => t.includes('Decode Scheduler TP0'));
  await expect(page.getByTestId('tooltip-lane')).toHaveText(/^Decode Scheduler TP0/);
  expect(server.text.length).toBeGreaterThan('Decode Scheduler TP0'.length);
  // the span's own name heads the tooltip
  expect(await page.getByTestId('tooltip').locator('.tooltip-name').textContent()).not.toBe('');

  // back to the whole run; zoom with W held at the pointer over the sample's generate span
  await page.keyboard.press('0');
  const generateLane = await laneY(row, /^sglang_generate$/);
  const generate = await hoverAlong(page, generateLane, (t) => t.startsWith('sglang_generate'));
  const fitted = await runWindow(page);
  for (let i = 0; i < 60 && (await runWindow(page)).span >= 0.01; i++)
    await page.keyboard.down('w');
  await page.keyboard.up('w');
  await expect.poll(async () => (await runWindow(page)).span).toBeLessThan(0.01);
  expect(fitted.span).toBeGreaterThan(60);
  // the pointer never moved and is still over the generate span: the zoom kept it there
  await page.mouse.move(generate.x, generateLane + 1);
  await page.mouse.move(generate.x, generateLane);
  await expect(page.getByTestId('tooltip').locator('.tooltip-name')).toHaveText('sglang_generate');
  // the axis' ticks at this zoom read as distinct times
  const ticks = await page.getByTestId('axis-tick').allTextContents();
  expect(ticks.length).toBeGreaterThan(2);
  expect(new Set(ticks).size).toBe(ticks.length);

  // the first weight sync: drag over the axis to its first 2.5 seconds, hover a bucket's send
  await page.keyboard.press('0');
  const axis = (await page.getByTestId('time-axis').boundingBox())!;
  const whole = await runWindow(page);
  const xOfSec = (sec: number) => axis.x + ((sec - whole.start) / whole.span) * axis.width;
  await page.mouse.move(xOfSec(0), axis.y + axis.height / 2);
  await page.mouse.down();
  await page.mouse.move(xOfSec(2.5), axis.y + axis.height / 2, { steps: 4 });
  await page.mouse.up();
  await expect.poll(async () => (await runWindow(page)).span).toBeLessThan(3);
  await trainer.first().scrollIntoViewIfNeeded();
  const rank0 = (await trainer.first().boundingBox())!;
  const bucket = await hoverAlong(page, rank0.y + 10, (t) => t.startsWith('weight_bucket_send'));
  expect(bucket.text).toMatch(/bucket \d+ · v1/);
  await expect(page.getByTestId('tooltip-hint')).toHaveText(/^bucket \d+ · v1$/);
  // a click shows the record; Escape closes it
  await page.mouse.click(bucket.x, rank0.y + 10);
  await expect(details).toContainText('weight_bucket_send');
  await page.keyboard.press('Escape');
  await expect(details).toHaveCount(0);

  // the sample's request, from the details, and back to the sample that made it
  await request.click();
  await expect(details).toHaveAttribute('data-kind', 'server');
  await page.getByTestId('run-back-to-sample').click();
  await expect(details).toHaveAttribute('data-kind', 'sample');
  await expect(page.locator(`[data-testid=lane-row][data-key="${key}"]`)).toHaveClass(/selected/);
  await expect(page.getByTestId('run-weight-versions')).toHaveText('["1"]');
  await expect(details).toContainText(rid);
  // its timing split (summing to its duration), status, reward and prompt, as on a file's page
  const timing = details.getByTestId('sample-timing');
  await expect(timing).toContainText(/\d+ turns? · \d+ attempts?/);
  const duration = Number(await timing.getAttribute('data-duration'));
  expect(duration).toBeGreaterThan(0);
  const split = await timing
    .getByTestId('timing-part')
    .evaluateAll((trs) => trs.map((tr) => Number(tr.getAttribute('data-sec'))));
  expect(split.reduce((x, y) => x + y, 0)).toBeCloseTo(duration, 5);
  await expect(details.getByTestId('run-sample-status')).toHaveText(
    /^(completed|truncated|aborted|failed|pending)$/,
  );
  expect(
    Number.isFinite(Number(await details.getByTestId('run-sample-reward').textContent())),
  ).toBe(true);
  await expect(details.getByTestId('run-sample-prompt')).not.toBeEmpty();

  // the aborted request no sample asked for leads to rollout 0 sample 5's first attempt
  await page.getByTestId('run-orphan-requests').getByRole('button').click();
  await expect(details).toHaveAttribute('data-kind', 'server');
  await expect(page.getByTestId('run-details-rid')).toHaveText('03b17c26e4095a197023885edbb54011');
  await expect(page.getByTestId('run-orphan-note')).toContainText('ERROR on the server');
  await page.getByTestId('run-orphan-note').getByRole('button').click();
  await expect(details).toHaveAttribute('data-kind', 'sample');
  await expect(details.locator('h3')).toHaveText('Rollout 0 · sample 5');

  // no stale sample in this run: the filter leaves no row
  await page.getByTestId('run-stale-only').check();
  await expect(samples).toHaveCount(0);
  await expect(samplesGroup).toHaveCount(0);
});

test('"Compare with" and "Export" take a file: on a run tab they are disabled and say why', async ({
  page,
}) => {
  await page.goto(`http://127.0.0.1:${PORT}/?token=${TOKEN}`);
  await runComplete(page);
  await expect(page.getByTestId('run-counts')).toContainText('64 samples');
  const compare = page.getByTestId('compare-button');
  const exportButton = page.getByTestId('export-button');
  // a file beside the run: on the file's own tab Compare is offered
  await page
    .getByTestId('file-input')
    .setInputFiles(resolve(__dirname, '../fixtures/slime/rollout_small.pt'));
  // the file's tab shows all its rows once it is open; on a busy machine that takes a while
  await expect(page.getByTestId('row-count')).toContainText('16 / 16 rows', { timeout: 120_000 });
  await expect(page.getByTestId('opening-tab')).toHaveCount(0);
  await expect(compare).toBeEnabled();
  await expect(exportButton).toBeEnabled();
  // the run's tab: a run is no single file to compare or export, and picking one there compared
  // (or wrote) the file hidden behind the run
  await page.getByTestId('run-tab').click();
  await expect(page.getByTestId('run-counts')).toBeVisible();
  await expect(compare).toBeDisabled();
  await expect(compare).toHaveAttribute('title', /^A run is many files on one clock/);
  await expect(exportButton).toBeDisabled();
  await expect(exportButton).toHaveAttribute('title', /^A run is many files/);
  // back on the file, both are offered again
  await page.getByTestId('file-tab').click();
  await expect(compare).toBeEnabled();
  await expect(compare).not.toHaveAttribute('title');
  await expect(exportButton).toBeEnabled();
});

test('a run still opening is one item in the top bar, its files counted inside it, with one Cancel', async ({
  page,
}) => {
  // the fixture run and a dump that takes seconds to read (short token lists, many samples), so
  // the run is still opening while the page is looked at
  const dir = mkdtempSync(join(tmpdir(), 'te-run-opening-'));
  for (const name of ['rollout_0.pt', 'rollout_1.pt', 'sglang_otel_trace.json'])
    copyFileSync(join(RUN, name), join(dir, name));
  cpSync(join(RUN, 'comm_timeline'), join(dir, 'comm_timeline'), { recursive: true });
  writeSlimeDump(join(dir, 'rollout_2.pt'), Infinity, 150, 30_000, { rolloutId: 2 });
  const { server: opening } = await startServe(CLI, PORT + 1, TOKEN, [dir]);
  try {
    await page.goto(`http://127.0.0.1:${PORT + 1}/?token=${TOKEN}`);
    await expect(page.getByTestId('run-tab')).toHaveCount(1);
    const item = page.getByTestId('run-opening-tab');
    await expect(item).toHaveCount(1);
    await expect(item).toContainText(basename(dir));
    // 2 dumps, SGLang's file, 2 trainer ranks and the big dump
    await expect(item.getByTestId('run-opening-files')).toContainText(/\d of 6 files in/);
    // once the strip shows a file being read, its progress has reached the page: the file is
    // inside the run's item, not an opening file of its own with a Cancel of its own
    const strip = page.getByTestId('run-progress');
    await expect(strip.locator('.run-progress-bar').first()).toBeVisible();
    expect(await page.getByTestId('opening-tab').count()).toBe(0);
    expect(await page.getByTestId('cancel-open').count()).toBe(0);
    expect(await strip.isVisible()).toBe(true);
    // one size in both places, in decimal MB (src-renderer/units/byte-size.ts): the big dump's
    // line in the strip, and the run's item (the bytes of all 6 files), as the files on disk are
    const mb = (bytes: number) => `${(bytes / 1e6).toFixed(1)} MB`;
    const runBytes = readdirSync(dir, { recursive: true, withFileTypes: true })
      .filter((entry) => entry.isFile())
      .reduce((sum, entry) => sum + statSync(join(entry.parentPath, entry.name)).size, 0);
    await expect(
      strip.getByTestId('run-progress-file').filter({ hasText: 'rollout_2.pt' }),
    ).toContainText(mb(statSync(join(dir, 'rollout_2.pt')).size));
    await expect(item.getByTestId('run-opening-files')).toContainText(`/ ${mb(runBytes)}`);
    // the item's one Cancel stops the run: the files in stay in the run tab
    await item.getByTestId('run-opening-cancel').click();
    await expect(strip).toHaveCount(0);
    await expect(item).toHaveCount(0);
    await expect(page.getByTestId('run-tab')).toHaveCount(1);
    await expect(page.getByTestId('run-counts')).toContainText('samples');
    await expect(page.getByTestId('opening-tab')).toHaveCount(0);
  } finally {
    opening.kill();
    rmSync(dir, { recursive: true, force: true });
  }
});
