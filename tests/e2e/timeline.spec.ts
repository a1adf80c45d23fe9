import { test, expect, type Page } from '@playwright/test';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { dropFixtures } from './support/drop-files';
import { fileOpen } from './support/app-ready';

const SLIME = resolve(__dirname, '../fixtures/slime');
const URL = '/?token=e2e-test-token';

interface ExpectedRow {
  row_id: number;
  sample_index: number;
  status: string;
  lane_count: number;
  open_span_count: number;
  orphan_count: number;
  items: { type: string; name: string; lane: number; state: string }[];
}
const expected = (name: string) =>
  JSON.parse(readFileSync(resolve(SLIME, `${name}.expected.json`), 'utf8')) as {
    rows: ExpectedRow[];
  };

async function open(page: Page, name: string) {
  await page.goto(URL);
  await page.getByTestId('file-input').setInputFiles(resolve(SLIME, name));
  await fileOpen(page, name);
  await expect(page.getByTestId('timeline-row').first()).toHaveAttribute('data-bars', /\d+/);
}

test('rows, bars, ongoing spans and orphan crosses match the dump', async ({ page }) => {
  await open(page, 'rollout_small.pt');
  const rows = expected('rollout_small.pt').rows;
  await expect(page.getByTestId('row-count')).toContainText(`${rows.length} / ${rows.length} rows`);
  // every visible row draws one bar per span the row holds (PD phase children become segments)
  const first = rows[0];
  const row0 = page.locator(`[data-testid=timeline-row][data-row-id="${first.row_id}"]`);
  await expect(row0).toHaveAttribute('data-ongoing', String(first.open_span_count));
  const withOrphan = rows.find((r) => r.orphan_count > 0)!;
  await page.getByTestId('search-box').fill(`#${withOrphan.sample_index}`);
  await expect(
    page.locator(`[data-testid=timeline-row][data-row-id="${withOrphan.row_id}"]`),
  ).toHaveAttribute('data-orphans', String(withOrphan.orphan_count));
});

test('PD rows draw [P]/[D] phase segments and the phase legend', async ({ page }) => {
  await open(page, 'rollout_pd_legacy.pt');
  await expect(page.getByTestId('pd-legend')).toBeVisible();
  const rows = expected('rollout_pd_legacy.pt').rows;
  const pdRow = rows.find((r) => r.items.some((i) => i.name.endsWith('[P]')))!;
  const label = page.locator(`[data-testid=timeline-row][data-row-id="${pdRow.row_id}"]`);
  await expect(label).toHaveAttribute('data-pd-segments', /[1-9]\d*/);
  // slime's fresh-lane rule is for the cache; in the explorer [P] and [D] pack into a lane each
  const realLanes =
    Math.max(...pdRow.items.filter((i) => !/\[(P|D)\]$/.test(i.name)).map((i) => i.lane)) + 1;
  await expect(label).toHaveAttribute('data-lanes', String(realLanes + 2));
});

test('click selects a span and the details panel shows it; Escape closes; arrows move rows', async ({
  page,
}) => {
  await open(page, 'rollout_small.pt');
  const canvas = page.getByTestId('timeline-canvas');
  const box = (await canvas.boundingBox())!;
  await page.mouse.click(box.x + box.width / 2, box.y + 6);
  const details = page.getByTestId('span-details');
  await expect(details).toContainText('generate_and_rm_group');
  await expect(page.getByTestId('sample-details')).toContainText('Sample #0');
  await page.keyboard.press('Escape');
  await expect(details).toHaveCount(0);
  await page.keyboard.press('ArrowDown');
  await expect(page.locator('[data-testid=timeline-row].selected')).toHaveAttribute(
    'data-row-id',
    '0',
  );
  await page.keyboard.press('ArrowDown');
  await expect(page.locator('[data-testid=timeline-row].selected')).toHaveAttribute(
    'data-row-id',
    '1',
  );
});

test('search, status filter and sort change the rows shown', async ({ page }) => {
  await open(page, 'rollout_small.pt');
  const rows = expected('rollout_small.pt').rows;
  const aborted = rows.filter((r) => r.status === 'aborted').length;
  await page.locator('[data-testid=status-chip][data-value=aborted]').click();
  await expect(page.getByTestId('row-count')).toContainText(`${aborted} / ${rows.length} rows`);
  await expect(page.getByTestId('timeline-row')).toHaveCount(aborted);
  await page.getByTestId('clear-filters').click();
  // the group's duration: the whole row (every sample of a group ties; the lowest row id first)
  await page.getByTestId('sort-select').selectOption('group_duration');
  await page.getByTestId('sort-direction').click();
  const longest = [...rows].sort(
    (a, b) =>
      (b as unknown as { duration: number }).duration -
      (a as unknown as { duration: number }).duration,
  )[0];
  await expect(page.getByTestId('timeline-row').first()).toHaveAttribute(
    'data-row-id',
    String(longest.row_id),
  );
  // the sample's own duration: without the group span every sample of its group carries
  await page.getByTestId('sort-select').selectOption('duration');
  const own = (row: ExpectedRow) => {
    const times = (r: ExpectedRow) =>
      r.items.map((i) => {
        const t = i as unknown as { start_ts?: number; display_end_ts?: number; ts?: number };
        return [t.start_ts ?? t.ts!, t.display_end_ts ?? t.ts!, i.name] as const;
      });
    const group = (r: ExpectedRow) => (r as unknown as { group_index: number }).group_index;
    const shared = (item: readonly [number, number, string]) =>
      rows.some(
        (o) =>
          o !== row && group(o) === group(row) && times(o).some((x) => x.join() === item.join()),
      );
    const mine = times(row).filter((item, k) => row.items[k].type !== 'span' || !shared(item));
    return Math.max(...mine.map((x) => x[1])) - Math.min(...mine.map((x) => x[0]));
  };
  const longestOwn = [...rows].sort((a, b) => own(b) - own(a) || a.row_id - b.row_id)[0];
  expect(longestOwn.row_id).not.toBe(longest.row_id);
  await expect(page.getByTestId('timeline-row').first()).toHaveAttribute(
    'data-row-id',
    String(longestOwn.row_id),
  );
});

test('zoom keys and fit-all change the time axis', async ({ page }) => {
  await open(page, 'rollout_small.pt');
  const axis = page.getByTestId('time-axis');
  const span = async () =>
    Number(await axis.getAttribute('data-end')) - Number(await axis.getAttribute('data-start'));
  const before = await span();
  // poll: the axis updates on the next frame after a key, later on a loaded machine
  await page.keyboard.press('w');
  await page.keyboard.press('w');
  await expect.poll(span).toBeLessThan(before * 0.7);
  await page.keyboard.press('0');
  await expect.poll(async () => Math.abs((await span()) - before)).toBeLessThan(1e-6);
});

test('a synthetic drop opens a file', async ({ page }) => {
  await page.goto(URL);
  await dropFixtures(page, 'slime/rollout_nopd.pt');
  await fileOpen(page, 'rollout_nopd.pt');
});

test('perf view shows slime’s metrics and a histogram bin filters the timeline', async ({
  page,
}) => {
  await open(page, 'rollout_small.pt');
  await page.getByTestId('view-perf').click();
  const perf = JSON.parse(
    readFileSync(resolve(SLIME, 'rollout_small.pt.perf.expected.json'), 'utf8'),
  ) as Record<string, number>;
  const cell = page.locator('[data-metric="perf/request/e2e_latency"] [data-stat=mean]');
  expect(Number(await cell.getAttribute('data-value'))).toBeCloseTo(
    perf['perf/request/e2e_latency/mean'],
    9,
  );
  const bin = page
    .locator(
      '[data-testid=histogram][data-title^="e2e latency"] [data-testid=histogram-bin]:not([data-count="0"])',
    )
    .first();
  await bin.click({ force: true });
  await expect(page.getByTestId('timeline')).toBeVisible();
  // the filtered order arrives after the switch: wait for it rather than read it at once
  const shown = () => page.locator('[data-testid=row-count] b').textContent().then(Number);
  await expect.poll(shown).toBeLessThan(16);
  expect(await shown()).toBeGreaterThan(0);
});

test('a tall row scrolled half out of view keeps its label in view', async ({ page }) => {
  await open(page, 'rollout_agentic.pt');
  const first = page.locator('[data-testid=timeline-row]').first();
  await page.getByTestId('toggle-all-lanes').click();
  await expect(first).toHaveAttribute('data-expanded', 'true');
  const box = (await first.boundingBox())!;
  const scroller = page.locator('.timeline-scroll');
  const scrollBox = (await scroller.boundingBox())!;
  // scroll by half the first row: its top is now above the visible area
  await scroller.evaluate((el, by) => (el.scrollTop = by), Math.round(box.height / 2));
  await expect.poll(async () => (await first.boundingBox())!.y).toBeLessThan(scrollBox.y);
  const index = (await first.locator('.row-index').boundingBox())!;
  expect(index.y).toBeGreaterThanOrEqual(scrollBox.y);
  expect(index.y + index.height).toBeLessThanOrEqual((await first.boundingBox())!.y + box.height);
});

/** The axis' window and the time under x (page pixels) of the canvas. */
async function axisWindow(page: Page) {
  const axis = page.getByTestId('time-axis');
  return {
    start: Number(await axis.getAttribute('data-start')),
    end: Number(await axis.getAttribute('data-end')),
  };
}

test('W zooms at the pointer, faster while held; S zooms out there', async ({ page }) => {
  await open(page, 'rollout_small.pt');
  const canvas = (await page.getByTestId('timeline-canvas').boundingBox())!;
  const before = await axisWindow(page);
  // the pointer at a quarter of the canvas: the time under it must stay under it
  const frac = 0.25;
  await page.mouse.move(canvas.x + canvas.width * frac, canvas.y + 10);
  const at = before.start + (before.end - before.start) * frac;
  // the page's pointer is on whole pixels: the time under it is known to a pixel
  const pixelSec = (before.end - before.start) / canvas.width;
  await page.keyboard.press('w');
  await expect
    .poll(async () => (await axisWindow(page)).end - (await axisWindow(page)).start)
    .toBeLessThan((before.end - before.start) * 0.81);
  const once = await axisWindow(page);
  expect(Math.abs(once.start + (once.end - once.start) * frac - at)).toBeLessThan(pixelSec);
  // held: the key's repeats (down again without up) each zoom more than a press
  for (let i = 0; i < 12; i++) await page.keyboard.down('w');
  await page.keyboard.up('w');
  await expect
    .poll(async () => (await axisWindow(page)).end - (await axisWindow(page)).start)
    .toBeLessThan((once.end - once.start) * 0.8 ** 13);
  const held = await axisWindow(page);
  expect(Math.abs(held.start + (held.end - held.start) * frac - at)).toBeLessThan(pixelSec);
  await page.keyboard.press('s');
  await expect
    .poll(async () => (await axisWindow(page)).end - (await axisWindow(page)).start)
    .toBeGreaterThan(held.end - held.start);
  const out = await axisWindow(page);
  expect(Math.abs(out.start + (out.end - out.start) * frac - at)).toBeLessThan(pixelSec);
});

test('the legend swatches show their colours; hovering a PD segment names its phase', async ({
  page,
}) => {
  await open(page, 'rollout_pd_legacy.pt');
  // a swatch is a filled square in its colour, no border drawn over it
  const swatches = page.getByTestId('legend').getByTestId('legend-swatch');
  expect(await swatches.count()).toBeGreaterThan(10);
  for (const swatch of await swatches.all()) {
    await expect(swatch).toHaveCSS('border-top-width', '0px');
    await expect(swatch).toHaveCSS('height', '10px');
    expect(await swatch.evaluate((el) => getComputedStyle(el).backgroundColor)).toMatch(/^rgb/);
  }
  const decodeForward = page.locator('.pd-phase[title="decode forward"] .swatch');
  await expect(decodeForward).toHaveCSS('background-color', 'rgb(49, 163, 84)');

  // a row with [P]/[D] spans: along its bar lane, the pointer finds phase segments
  const rows = expected('rollout_pd_legacy.pt').rows;
  const pdRow = rows.find((r) => r.items.some((i) => i.name.endsWith('[D]')))!;
  const label = page.locator(`[data-testid=timeline-row][data-row-id="${pdRow.row_id}"]`);
  const box = (await label.boundingBox())!;
  const canvas = (await page.getByTestId('timeline-canvas').boundingBox())!;
  const phase = page.getByTestId('tooltip-phase');
  const y = box.y + box.height / 2;
  let found = '';
  for (let x = canvas.x + 2; x < canvas.x + canvas.width && !found; x += 3) {
    await page.mouse.move(x, y);
    if (await phase.isVisible()) found = (await phase.textContent()) ?? '';
  }
  expect(found).toMatch(
    /^(prefill (bootstrap queue|bootstrap|alloc wait|forward|transfer queue)|decode (prealloc|bootstrap|alloc wait|transfer|forward)) \d/,
  );
  // the tooltip still names the span the phase belongs to
  await expect(page.getByTestId('tooltip').locator('.tooltip-name')).toHaveText(/\[(P|D)\]$/);
});

test('? lists the timeline keys, dragging over the axis among them', async ({ page }) => {
  await open(page, 'rollout_small.pt');
  await page.keyboard.press('?');
  const dialog = page.getByTestId('shortcuts-dialog');
  await expect(dialog).toContainText('Drag over the time axis');
  await expect(dialog).toContainText('Zoom in / out at the pointer');
  await expect(dialog).toContainText('Previous / next item of the selected row');
  await page.keyboard.press('Escape');
  await expect(dialog).toHaveCount(0);
});
