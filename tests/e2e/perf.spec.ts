import { test, expect, type Page } from '@playwright/test';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { decodeAnswerBytes } from '../support/serve-call';
import { fileOpen } from './support/app-ready';

// The perf view against serve mode: slime's own perf/... output and cache JSON are the truth.
const SLIME = resolve(__dirname, '../fixtures/slime');
const URL = '/?token=e2e-test-token';

interface Item {
  type: string;
  name: string;
  state: string;
  start_ts?: number;
  end_ts?: number | null;
  attrs: { start_attrs?: Record<string, unknown>; end_attrs?: Record<string, unknown> };
}
interface Row {
  row_id: number;
  start: number;
  end: number;
  items: Item[];
}

const json = <T>(name: string) => JSON.parse(readFileSync(resolve(SLIME, name), 'utf8')) as T;

async function openPerf(page: Page, name: string) {
  await page.goto(URL);
  await page.getByTestId('file-input').setInputFiles(resolve(SLIME, name));
  await fileOpen(page, name);
  await expect(page.getByTestId('timeline-row').first()).toHaveAttribute('data-bars', /\d+/);
  await page.getByTestId('view-perf').click();
  await expect(page.getByTestId('perf-view')).toBeVisible();
}

for (const name of ['rollout_small.pt', 'rollout_pd_legacy.pt']) {
  test(`perf table equals slime’s perf/... metrics for ${name}`, async ({ page }) => {
    await openPerf(page, name);
    const perf = json<Record<string, number>>(`${name}.perf.expected.json`);
    expect(Object.keys(perf).length).toBeGreaterThan(0);
    for (const [key, value] of Object.entries(perf)) {
      const cut = key.lastIndexOf('/');
      const td = page.locator(
        `[data-testid=perf-table] tr[data-metric="${key.slice(0, cut)}"] td[data-stat="${key.slice(cut + 1)}"]`,
      );
      expect(Number(await td.getAttribute('data-value')), key).toBeCloseTo(value, 9);
    }
  });
}

test('clicking a histogram bin shows exactly the samples of its requests', async ({ page }) => {
  // the perf view's answer is a digest (no per-value rows); a bin's rows come from the worker
  const calls: { method: string; args: unknown[] }[] = [];
  const perfAnswers: { result: { series: object[] } }[] = [];
  page.on('request', (request) => {
    if (request.url().endsWith('/api/call')) calls.push(request.postDataJSON());
  });
  page.on('response', async (response) => {
    const body = response.request().postDataJSON() as { method?: string } | null;
    if (body?.method === 'getPerf') {
      const answer = decodeAnswerBytes(response.headers()['content-type'], await response.body());
      perfAnswers.push(answer as (typeof perfAnswers)[number]);
    }
  });
  await openPerf(page, 'rollout_small.pt');
  const rows = json<{ rows: Row[] }>('rollout_small.pt.expected.json').rows;
  const requests = rows.flatMap((r) =>
    r.items
      .filter((i) => i.type === 'span' && i.name === 'sglang_generate')
      .map((i) => ({ rowId: r.row_id, e2e: i.attrs.end_attrs?.e2e_latency }))
      .filter((q): q is { rowId: number; e2e: number } => typeof q.e2e === 'number'),
  );
  const histogram = page.locator('[data-testid=histogram][data-title="e2e latency (s)"]');
  await expect(histogram).toHaveAttribute('data-values', String(requests.length));
  const bins = histogram.getByTestId('histogram-bin');
  const counts = await bins.evaluateAll((els) =>
    els.map((e) => Number(e.getAttribute('data-count'))),
  );
  expect(counts.reduce((a, b) => a + b, 0)).toBe(requests.length);

  // the fullest bin: several requests, maybe several samples
  const pick = counts.indexOf(Math.max(...counts));
  const bin = bins.nth(pick);
  const x0 = Number(await bin.getAttribute('data-x0'));
  const x1 = Number(await bin.getAttribute('data-x1'));
  const last = pick === counts.length - 1;
  const inBin = requests.filter((q) => q.e2e >= x0 && (q.e2e < x1 || (last && q.e2e <= x1)));
  expect(inBin.length).toBe(counts[pick]);
  const expectedRows = [...new Set(inBin.map((q) => q.rowId))].sort((a, b) => a - b);
  await bin.hover({ force: true });
  await expect(histogram.locator('.histogram-stats')).toContainText(
    `: ${counts[pick]} in ${expectedRows.length} samples`,
  );
  await expect.poll(() => perfAnswers.length).toBeGreaterThan(0);
  const series = perfAnswers[0].result.series;
  expect(series.length).toBeGreaterThan(0);
  for (const s of series) expect(Object.keys(s)).not.toContain('rowIds');
  expect(calls.some((c) => c.method === 'getPerfBinRows')).toBe(false);

  await bin.click({ force: true });
  await expect(page.getByTestId('timeline')).toBeVisible();
  await expect(page.getByTestId('row-count')).toHaveAttribute(
    'data-shown',
    String(expectedRows.length),
  );
  await expect(page.getByTestId('picked-rows')).toContainText(`${expectedRows.length} rows`);
  // rows are virtualized: those on screen are the first of the picked ones, in sample order
  const shownIds = await page
    .getByTestId('timeline-row')
    .evaluateAll((els) => els.map((e) => Number(e.getAttribute('data-row-id'))));
  expect(shownIds.length).toBeGreaterThan(0);
  expect(shownIds).toEqual(expectedRows.slice(0, shownIds.length));
  const asked = calls.filter((c) => c.method === 'getPerfBinRows');
  expect(asked).toHaveLength(1);
  expect(asked[0].args.slice(1)).toEqual(['e2e latency', pick]);

  // the chip clears the pick
  await page.getByTestId('picked-rows').click();
  await expect(page.getByTestId('row-count')).toHaveAttribute('data-shown', String(rows.length));
});

test('samples running over time peak where slime’s rows overlap most, and end with the rollout', async ({
  page,
}) => {
  await openPerf(page, 'rollout_small.pt');
  const rows = json<{ rows: Row[] }>('rollout_small.pt.expected.json').rows;
  // sweep the rows' [start, end] intervals: the most that run at once
  const events = rows.flatMap((r) => [
    { t: r.start, d: 1 },
    { t: r.end, d: -1 },
  ]);
  events.sort((a, b) => a.t - b.t || a.d - b.d);
  let running = 0;
  let peak = 0;
  for (const e of events) peak = Math.max(peak, (running += e.d));
  const cards = page.getByTestId('perf-card');
  await expect(cards.filter({ hasText: 'peak running' })).toContainText(String(peak));
  await expect(cards.filter({ hasText: 'samples with a trace' })).toContainText(
    String(rows.length),
  );
  await expect(page.getByTestId('running-chart')).toBeVisible();
  await expect(page.getByTestId('running-tail')).toContainText('long tail');
});

test('durations per span name count slime’s closed spans', async ({ page }) => {
  await openPerf(page, 'rollout_small.pt');
  const rows = json<{ rows: Row[] }>('rollout_small.pt.expected.json').rows;
  const closed = new Map<string, number>();
  for (const item of rows.flatMap((r) => r.items))
    if (item.type === 'span' && item.state === 'closed_span')
      closed.set(item.name, (closed.get(item.name) ?? 0) + 1);
  // (ours) PD phase child spans are drawn as segments of their [P]/[D] span, not as spans
  for (const name of closed.keys())
    if (/^sglang_pd_(prefill|decode)_/.test(name)) closed.delete(name);
  await expect(page.locator('[data-testid=duration-table] tr[data-span]')).toHaveCount(closed.size);
  for (const [name, count] of closed) {
    await expect(
      page.locator(`[data-testid=duration-table] tr[data-span="${name}"] td`).nth(1),
    ).toHaveText(String(count));
  }
  // a span name there filters the timeline to rows that have it
  const name = 'reward_model';
  await page.locator(`[data-testid=duration-table] tr[data-span="${name}"] button`).click();
  await expect(page.getByTestId('row-count')).toHaveAttribute(
    'data-shown',
    String(rows.filter((r) => r.items.some((i) => i.name === name)).length),
  );
});

test('with a search that matches nothing, perf and groups say they cover every row', async ({
  page,
}) => {
  await openPerf(page, 'rollout_small.pt');
  const rows = json<{ rows: Row[] }>('rollout_small.pt.expected.json').rows.length;
  await expect(page.getByTestId('filter-scope')).toHaveCount(0);
  await page.getByTestId('view-timeline').click();
  await page.getByTestId('search-box').fill('no-such-text-anywhere');
  await expect(page.getByTestId('row-count')).toContainText(`0 / ${rows} rows`);
  await page.getByTestId('view-perf').click();
  await expect(page.getByTestId('filter-scope')).toHaveText(
    `These figures cover all ${rows} rows of the file: the search “no-such-text-anywhere” narrows only the timeline.`,
  );
  await page.getByTestId('view-groups').click();
  await expect(page.getByTestId('groups-view').getByTestId('filter-scope')).toHaveText(
    `These groups cover all ${rows} rows of the file: the search “no-such-text-anywhere” narrows only the timeline.`,
  );
  await page.getByTestId('view-timeline').click();
  await page.getByTestId('search-box').fill('');
  await page.getByTestId('view-perf').click();
  await expect(page.getByTestId('perf-view')).toBeVisible();
  await expect(page.getByTestId('filter-scope')).toHaveCount(0);
});
