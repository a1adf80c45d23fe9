import { test, expect, type Page } from '@playwright/test';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { ChildProcess } from 'node:child_process';
import { startServe } from './support/start-serve';
// the bench's dump writer makes slime-shaped dumps of any size (tests/bench/README)
// eslint-disable-next-line @typescript-eslint/ban-ts-comment
// @ts-ignore: a plain .mjs helper without types
import { writeSlimeDump } from '../bench/slime-dump-writer.mjs';
import { APP_SIGNAL_MS, fileOpen } from './support/app-ready';
import { signalsSeen, watchSignalsNow } from './support/signal-order';

// Issue 16: the timeline reads right at every zoom level and at real rollout sizes.
const SLIME = resolve(__dirname, '../fixtures/slime');
const URL = '/?token=e2e-test-token';
const CLI = resolve(__dirname, '../../out/main/cli.js');

interface ExpectedRow {
  row_id: number;
  start: number;
  end: number;
  items: { type: string; name: string; lane: number }[];
}
const expected = JSON.parse(
  readFileSync(resolve(SLIME, 'rollout_small.pt.expected.json'), 'utf8'),
) as {
  rows: ExpectedRow[];
  global_start: number;
};

async function open(page: Page, path: string, name: string) {
  await page.goto(URL);
  await page.getByTestId('file-input').setInputFiles(path);
  await fileOpen(page, name);
  await expect(page.getByTestId('timeline-row').first()).toHaveAttribute('data-bars', /\d+/);
}

const tickLabels = (page: Page) => page.locator('[data-testid=axis-tick] text').allTextContents();

test('tick labels are distinct and whole at six zoom levels, from the whole rollout to a microsecond', async ({
  page,
}) => {
  await open(page, resolve(SLIME, 'rollout_small.pt'), 'rollout_small.pt');
  const axis = page.getByTestId('time-axis');
  const span = async () =>
    Number(await axis.getAttribute('data-end')) - Number(await axis.getAttribute('data-start'));
  // W zooms by 0.8: 0, 10, 25, 45, 65 and 90 presses go from ~50 s down to the 1 µs floor
  const presses = [0, 10, 15, 20, 20, 25];
  const spans: number[] = [];
  for (const n of presses) {
    for (let i = 0; i < n; i++) await page.keyboard.press('w');
    await expect.poll(async () => (await tickLabels(page)).length).toBeGreaterThanOrEqual(3);
    spans.push(await span());
    const labels = await tickLabels(page);
    expect(new Set(labels).size, labels.join(' | ')).toBe(labels.length);
    // the first and last labels lie wholly inside the axis
    const box = (await axis.boundingBox())!;
    const texts = page.locator('[data-testid=axis-tick] text');
    for (const k of [0, labels.length - 1]) {
      const t = (await texts.nth(k).boundingBox())!;
      expect(t.x).toBeGreaterThanOrEqual(box.x - 0.5);
      expect(t.x + t.width).toBeLessThanOrEqual(box.x + box.width + 0.5);
    }
  }
  // from the whole rollout (~50 s) to the microsecond floor
  expect(spans[0]).toBeGreaterThan(40);
  expect(spans[5]).toBeCloseTo(1e-6, 9);
  // the clock format: minutes and seconds with the decimals the zoom needs
  expect((await tickLabels(page))[0]).toMatch(/^\d+:\d\d\.\d{7,}$/);
});

test('ctrl+wheel over the timeline zooms the timeline, never the page, without console warnings', async ({
  page,
}) => {
  const warnings: string[] = [];
  page.on('console', (message) => warnings.push(message.text()));
  await open(page, resolve(SLIME, 'rollout_small.pt'), 'rollout_small.pt');
  const axis = page.getByTestId('time-axis');
  const span = async () =>
    Number(await axis.getAttribute('data-end')) - Number(await axis.getAttribute('data-start'));
  const before = await span();
  const box = (await page.getByTestId('timeline-canvas').boundingBox())!;
  await page.mouse.move(box.x + box.width / 2, box.y + 40);
  await page.keyboard.down('Control');
  await page.mouse.wheel(0, -300);
  await page.keyboard.up('Control');
  await expect.poll(span).toBeLessThan(before * 0.7);
  expect(await page.evaluate(() => window.visualViewport?.scale ?? 1)).toBe(1);
  expect(warnings.filter((w) => /preventDefault/.test(w))).toEqual([]);
});

test('a histogram bin click fits the time axis to the rows it keeps', async ({ page }) => {
  await open(page, resolve(SLIME, 'rollout_small.pt'), 'rollout_small.pt');
  await page.getByTestId('view-perf').click();
  const bin = page
    .locator(
      '[data-testid=histogram][data-title^="e2e latency"] [data-testid=histogram-bin]:not([data-count="0"])',
    )
    .first();
  await bin.click({ force: true });
  const shown = () => page.locator('[data-testid=row-count] b').textContent().then(Number);
  await expect.poll(shown).toBeLessThan(16);
  const ids = await page
    .locator('[data-testid=timeline-row]')
    .evaluateAll((els) => els.map((e) => Number(e.getAttribute('data-row-id'))));
  expect(ids.length).toBe(await shown());
  // the window is the kept rows' extent (from slime's cache) plus a 3% margin either side
  const rows = expected.rows.filter((r) => ids.includes(r.row_id));
  const start = Math.min(...rows.map((r) => r.start)) - expected.global_start;
  const end = Math.max(...rows.map((r) => r.end)) - expected.global_start;
  const axis = page.getByTestId('time-axis');
  await expect
    .poll(async () => Number(await axis.getAttribute('data-start')))
    .toBeCloseTo(start - (end - start) * 0.03, 6);
  expect(Number(await axis.getAttribute('data-end'))).toBeCloseTo(end + (end - start) * 0.03, 6);
  // and highlights the spans the values came from: slime's e2e_latency is an end attr of
  // sglang_generate (TRACE_MODEL 2); every kept row draws it at full strength, the rest dimmed
  const timeline = page.getByTestId('timeline');
  await expect(timeline).toHaveAttribute('data-highlight', 'sglang_generate');
  await expect(page.locator('.legend-entry.highlighted')).toHaveAttribute(
    'data-name',
    'sglang_generate',
  );
  const drawn = await page.locator('[data-testid=timeline-row]').evaluateAll((els) =>
    els.map((e) => ({
      rowId: Number(e.dataset.rowId),
      highlighted: Number(e.dataset.highlighted),
      bars: Number(e.dataset.bars),
    })),
  );
  expect(drawn.length).toBe(ids.length);
  // as many full-strength bars as slime's cache has sglang_generate spans in the row
  for (const { rowId, highlighted, bars } of drawn) {
    const generate = rows
      .find((r) => r.row_id === rowId)!
      .items.filter((i) => i.type === 'span' && i.name === 'sglang_generate').length;
    expect(generate, `row ${rowId}`).toBeGreaterThan(0);
    expect(highlighted, `row ${rowId}`).toBe(generate);
    expect(bars, `row ${rowId}`).toBeGreaterThan(highlighted);
  }
  // clearing the pick clears its highlight
  await page.getByTestId('picked-rows').click();
  await expect(timeline).toHaveAttribute('data-highlight', '');
});

test('an expanded row names lane 0 after its reward, and in the row info title', async ({
  page,
}) => {
  await open(page, resolve(SLIME, 'rollout_small.pt'), 'rollout_small.pt');
  const row = page.locator('[data-testid=timeline-row][data-row-id="1"]');
  await expect(row.getByTestId('lane0-name')).toHaveCount(0);
  await row.getByRole('button', { name: 'Expand row' }).click();
  // slime's cache: row 1's lane-0 item is its generate_and_rm_group span
  const lane0 = expected.rows[1].items.filter((i) => i.lane === 0).map((i) => i.name);
  expect(lane0).toEqual(['generate_and_rm_group']);
  const name = row.getByTestId('lane0-name');
  await expect(name).toHaveText('generate_and_rm_group');
  // at the fitted width the name gives way (ellipsis); the row info's title keeps it
  await expect(row.locator('.row-info')).toHaveAttribute('title', 'lane 0: generate_and_rm_group');
  // a column dragged 160 px wider shows it whole
  const resizer = (await page.getByTestId('label-resizer').boundingBox())!;
  await page.mouse.move(resizer.x + 2, resizer.y + 100);
  await page.mouse.down();
  await page.mouse.move(resizer.x + 162, resizer.y + 100, { steps: 4 });
  await page.mouse.up();
  await expect(name).toBeVisible();
  await expect
    .poll(() => name.evaluate((e) => e.scrollWidth <= e.clientWidth && e.clientWidth > 0))
    .toBe(true);
  // the row info keeps its index and status beside it
  await expect(row.getByTestId('row-index')).toHaveText('#1');
});

test.describe('a rollout of 10,050 samples', () => {
  test.setTimeout(120_000);
  let dir = '';
  let path = '';
  test.beforeAll(() => {
    test.setTimeout(300_000);
    dir = mkdtempSync(join(tmpdir(), 'trace-explorer-e2e-'));
    path = join(dir, 'rollout_10k.pt');
    // ~80 MB: 10,050 samples of 16 tokens with slime's traces (about 2 s to write)
    writeSlimeDump(path, 200e6, 16, 10_050);
  });
  // ~80 MB per run: never left behind in the temp folder
  test.afterAll(() => rmSync(dir, { recursive: true, force: true }));

  test('upload progress and Cancel show while the file is still on its way; the label column fits #10049', async ({
    page,
  }) => {
    await page.goto(URL);
    // the app's own signals, in the order they show (how soon: `npm run bench feedback`)
    await watchSignalsNow(page, {
      opening: '[data-testid=opening-tab]',
      cancel: '[data-testid=cancel-open]',
      rows: '[data-testid=file-tab]',
      open: '[data-testid=file-tab][data-state=open]',
    });
    await page.getByTestId('file-input').setInputFiles(path);
    await expect(page.getByTestId('opening-tab')).toBeVisible({ timeout: APP_SIGNAL_MS });
    await expect(page.getByTestId('cancel-open')).toBeVisible();
    await expect(page.getByTestId('file-tab')).toContainText('rollout_10k.pt', {
      timeout: APP_SIGNAL_MS,
    });
    await expect(page.getByTestId('timeline-row').first()).toHaveAttribute('data-bars', /\d+/);
    // 10,050 rows do not fit expanded: they open collapsed
    await expect(page.getByTestId('timeline-row').first()).toHaveAttribute(
      'data-expanded',
      'false',
    );
    // the file's tab shows from its first rows on; #10049 is there once the whole file is read
    await expect(page.getByTestId('opening-tab')).toHaveCount(0, { timeout: 300_000 });
    // the progress and its Cancel came first, while the bytes were still going up or being
    // read: before the file's first rows, before the whole file
    const seen = await signalsSeen(page);
    expect(seen.map((s) => s.name)).toEqual(['opening', 'cancel', 'rows', 'open']);
    expect(seen[0].stage).toMatch(/^(uploading|reading)$/);
    await page.getByTestId('sort-select').selectOption('sample_index');
    await page.getByTestId('sort-direction').click();
    const top = page.locator('[data-testid=timeline-row]').first();
    await expect(top.getByTestId('row-index')).toHaveText('#10049');
    // the index, group and source each keep their own room: nothing runs into the next
    const index = (await top.locator('.row-index').boundingBox())!;
    const group = (await top.locator('.row-group').boundingBox())!;
    const source = (await top.locator('.row-source').boundingBox())!;
    const indexText = await top
      .locator('.row-index')
      .evaluate((e) => (e as HTMLElement).scrollWidth);
    expect(indexText).toBeLessThanOrEqual(index.width + 0.5);
    expect(index.x + index.width).toBeLessThanOrEqual(group.x + 0.5);
    expect(group.x + group.width).toBeLessThanOrEqual(source.x + 0.5);
    const groupText = await top
      .locator('.row-group')
      .evaluate((e) => (e as HTMLElement).scrollWidth);
    expect(groupText).toBeLessThanOrEqual(group.width + 0.5);
    expect(source.width).toBeGreaterThan(40);
    // the column can be resized by dragging its edge
    const column = page.getByTestId('label-column');
    const before = (await column.boundingBox())!.width;
    const handle = (await page.getByTestId('label-resizer').boundingBox())!;
    await page.mouse.move(handle.x + 3, handle.y + 20);
    await page.mouse.down();
    await page.mouse.move(handle.x + 83, handle.y + 20, { steps: 4 });
    await page.mouse.up();
    await expect.poll(async () => (await column.boundingBox())!.width).toBeCloseTo(before + 80, 0);
  });
});

test.describe('a file named at start-up, read while the user scrolls', () => {
  // ~480 MB read beside whatever else the machine runs: every wait is for the app's state
  test.setTimeout(600_000);
  // beside the suite's own server (E2E_PORT), so checkouts side by side do not collide
  const PORT = Number(process.env.E2E_PORT ?? 4791) + 9;
  const TOKEN = 'scroll-token';
  let dir = '';
  let server: ChildProcess | null = null;
  test.beforeAll(async () => {
    // writing ~480 MB takes a minute or more on a busy machine
    test.setTimeout(300_000);
    dir = mkdtempSync(join(tmpdir(), 'trace-explorer-e2e-'));
    // 60,000 samples (~480 MB) appended 50 at a time: the first rows show after the first few,
    // seconds before the last are read. Named at start-up, not uploaded: it is larger than an
    // upload may be (256 MiB), and a smaller upload was often read whole before the test could
    // scroll
    const streamed = join(dir, 'rollout_60k.pt');
    writeSlimeDump(streamed, 1e9, 16, 60_000, { batchSize: 50 });
    ({ server } = await startServe(CLI, PORT, TOKEN, [streamed]));
  });
  test.afterAll(() => {
    server?.kill();
    rmSync(dir, { recursive: true, force: true });
  });

  test('the timeline stays where the user scrolled while rows stream in, and across tabs', async ({
    page,
  }) => {
    await page.goto(`http://127.0.0.1:${PORT}/?token=${TOKEN}`);
    // the first rows, while the rest is read (previews; a later one may start earlier and move
    // the file's times): scroll down at once
    await expect(page.getByTestId('timeline-row').first()).toBeVisible({ timeout: 300_000 });
    await expect(page.getByTestId('opening-tab')).toBeVisible();
    // the file's tab says it is still being read (what e2e waits on: support/app-ready.ts)
    await expect(page.getByTestId('file-tab')).toHaveAttribute('data-state', 'reading');
    const scroller = page.locator('.timeline-scroll');
    // the first preview may hold too few rows to scroll 600 px (the scroll is then clamped):
    // scroll again until the rows allow it, still while the file is being read
    await expect
      .poll(() => scroller.evaluate((el) => ((el.scrollTop = 600), el.scrollTop)), {
        timeout: 90_000,
      })
      .toBe(600);
    await expect(page.getByTestId('opening-tab')).toBeVisible();
    await expect(page.getByTestId('opening-tab')).toHaveCount(0, { timeout: 300_000 });
    await expect(page.getByTestId('file-tab')).toHaveAttribute('data-state', 'open');
    await expect(page.getByTestId('row-count')).toContainText('60000');
    expect(await scroller.evaluate((el) => el.scrollTop)).toBe(600);
    // another tab and back: the timeline opens where it was
    await page.getByTestId('view-perf').click();
    await expect(page.locator('.timeline-scroll')).toHaveCount(0);
    await page.getByTestId('view-timeline').click();
    await expect
      .poll(() => page.locator('.timeline-scroll').evaluate((el) => el.scrollTop))
      .toBe(600);
  });
});
