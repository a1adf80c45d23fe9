import { test, expect, type Page } from '@playwright/test';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { dropFixtures } from './support/drop-files';
import { otlpWithoutRouter } from '../support/otlp-without-router';
import { fileOpen } from './support/app-ready';

const FIXTURES = resolve(__dirname, '../fixtures');
const URL = '/?token=e2e-test-token';

async function dropTwo(page: Page, a: string, b: string) {
  await page.goto(URL);
  await dropFixtures(page, a, b);
  await expect(page.getByTestId('compare-view')).toBeVisible();
}

test('two dropped dumps compare: perf table values equal slime’s perf for each side', async ({
  page,
}) => {
  await dropTwo(page, 'slime/rollout_small.pt', 'slime/rollout_nopd.pt');
  const perfA = JSON.parse(
    readFileSync(resolve(FIXTURES, 'slime/rollout_small.pt.perf.expected.json'), 'utf8'),
  ) as Record<string, number>;
  const perfB = JSON.parse(
    readFileSync(resolve(FIXTURES, 'slime/rollout_nopd.pt.perf.expected.json'), 'utf8'),
  ) as Record<string, number>;
  for (const key of [
    'perf/request/e2e_latency/mean',
    'perf/decode/throughput/median',
    'perf/request/queue_time/max',
  ]) {
    const row = page.locator(`[data-testid^=perf-diff-table] tr[data-metric="${key}"]`);
    expect(Number(await row.getAttribute('data-a'))).toBeCloseTo(perfA[key], 9);
    expect(Number(await row.getAttribute('data-b'))).toBeCloseTo(perfB[key], 9);
  }
  // where the time went, distributions and matched samples
  await page.getByRole('tab', { name: 'Span totals' }).click();
  await expect(
    page.locator('[data-testid=time-breakdown] tr[data-span=sglang_generate]'),
  ).toBeVisible();
  await page.getByRole('tab', { name: 'Distributions' }).click();
  await expect(page.getByTestId('distribution-stats')).toContainText('n=');
  await page.getByRole('tab', { name: 'Matched samples' }).click();
  // both rollouts hold samples 0..15, but with other prompts: an index means nothing across
  // them, so samples match by group and prompt, and none does (issue 17)
  await expect(page.getByTestId('match-counts')).toContainText(
    '0 matched · 16 only in A · 16 only in B · matched by group and prompt',
  );
});

test('a dump and an OTLP file cannot be compared, and the app says so', async ({ page }) => {
  await dropTwo(page, 'slime/rollout_small.pt', 'otlp/roll_traces.1.jsonl');
  await expect(page.getByTestId('compare-error')).toContainText('cannot compare');
});

test('an OTLP file opens as rows; a span can be selected and shows its OpenTelemetry fields', async ({
  page,
}) => {
  await page.goto(URL);
  await page
    .getByTestId('file-input')
    .setInputFiles(resolve(FIXTURES, 'otlp/sglang_otel_trace.json'));
  await fileOpen(page, 'sglang_otel_trace.json');
  // the tab's tooltip says how long opening took and how fast the file was read
  await expect(page.getByTestId('file-tab')).toHaveAttribute(
    'title',
    /opened in [\d.]+ s \(read in [\d.]+ s, \d+ MB\/s\)/,
  );
  await expect(page.getByTestId('row-count')).toContainText('20 / 20 rows');
  // wait until the first rows are drawn, so the click lands on a bar
  await expect(page.getByTestId('timeline-row').first()).toHaveAttribute('data-bars', /\d+/);
  // 20 traces with many lanes do not fit expanded: they open collapsed, one lane each
  await expect(page.getByTestId('timeline-row').first()).toHaveAttribute('data-expanded', 'false');
  await page.getByTestId('toggle-all-lanes').click();
  const canvas = page.getByTestId('timeline-canvas');
  const box = (await canvas.boundingBox())!;
  // the first row's root span (the router's http_request) starts at the left of the fitted window
  await page.mouse.click(box.x + box.width * 0.06, box.y + 10);
  await expect(page.getByTestId('span-details')).toContainText('http_request');
  await expect(page.getByTestId('span-details')).toContainText('OpenTelemetry');
  await expect(page.getByTestId('span-details')).toContainText('smg');
  // the row is the request: named by its decode root, on that root's service
  await expect(page.getByTestId('row-details')).toContainText(/decode Req [0-9a-f]{8}/);
  await expect(page.getByTestId('row-details')).toContainText('sglang');
});

test('the mixed-garbage OTLP file opens with a notice of skipped lines', async ({ page }) => {
  await page.goto(URL);
  await page
    .getByTestId('file-input')
    .setInputFiles(resolve(FIXTURES, 'otlp/otlp_mixed_garbage.jsonl'));
  await expect(page.getByTestId('file-notices')).toContainText('11 lines skipped: line 2 not JSON');
});

test('compared timelines share zoom and cursor; one search filters both', async ({ page }) => {
  await dropTwo(page, 'slime/rollout_small.pt', 'slime/rollout_nopd.pt');
  await page.getByRole('tab', { name: 'Timelines' }).click();
  const axes = page.getByTestId('time-axis');
  await expect(axes).toHaveCount(2);
  await expect(page.getByTestId('timeline-row').first()).toHaveAttribute('data-bars', /\d+/);
  const range = async (i: number) => [
    Number(await axes.nth(i).getAttribute('data-start')),
    Number(await axes.nth(i).getAttribute('data-end')),
  ];
  const before = await range(0);
  await page.keyboard.press('w');
  const a = await range(0);
  expect(a[1] - a[0]).toBeLessThan((before[1] - before[0]) * 0.9);
  expect(await range(1)).toEqual(a);
  // the pointer over A draws the cursor over B too
  const box = (await page.getByTestId('timeline-canvas').first().boundingBox())!;
  await page.mouse.move(box.x + 200, box.y + 20);
  await expect(page.getByTestId('compare-side-b').getByTestId('cursor-line')).toBeVisible();
  await expect(page.getByTestId('compare-side-b').getByTestId('cursor-readout')).toContainText(
    'running',
  );
  // one search for both sides
  await page.getByTestId('compare-search-a').fill('aborted');
  const aborted = (name: string) =>
    (
      JSON.parse(readFileSync(resolve(FIXTURES, `slime/${name}.expected.json`), 'utf8')) as {
        rows: { status: string }[];
      }
    ).rows.filter((r) => r.status === 'aborted').length;
  await expect(page.getByTestId('compare-count-a')).toHaveText(
    `${aborted('rollout_small.pt')} / 16 rows`,
  );
  await expect(page.getByTestId('compare-count-b')).toHaveText(
    `${aborted('rollout_nopd.pt')} / 16 rows`,
  );
});

test('the wall clock is one choice for both compared timelines, and stays across views', async ({
  page,
}) => {
  await dropTwo(page, 'slime/rollout_small.pt', 'slime/rollout_nopd.pt');
  await page.getByRole('tab', { name: 'Timelines' }).click();
  const axes = page.getByTestId('time-axis');
  await expect(axes).toHaveCount(2);
  const clocks = () => axes.evaluateAll((all) => all.map((a) => a.getAttribute('data-clock')));
  expect(await clocks()).toEqual(['from-start', 'from-start']);
  // A's button: both axes read the wall clock, and B's button says so
  await page.getByTestId('compare-side-a').getByTestId('wall-clock').click();
  await expect.poll(clocks).toEqual(['wall', 'wall']);
  await expect(page.getByTestId('compare-side-b').getByTestId('wall-clock')).toHaveAttribute(
    'aria-pressed',
    'true',
  );
  // each side's labels are its own file's time of day (UTC)
  const firstLabel = (side: string) =>
    page.getByTestId(side).getByTestId('axis-tick').first().textContent();
  expect(await firstLabel('compare-side-a')).toMatch(/\d:\d\d/);
  expect(await firstLabel('compare-side-b')).toMatch(/\d:\d\d/);
  // another tab and back: still the wall clock; B's button turns it off for both
  await page.getByRole('tab', { name: 'Matched samples' }).click();
  await page.getByRole('tab', { name: 'Timelines' }).click();
  await expect.poll(clocks).toEqual(['wall', 'wall']);
  await page.getByTestId('compare-side-b').getByTestId('wall-clock').click();
  await expect.poll(clocks).toEqual(['from-start', 'from-start']);
});

test('SGLang slices draw their links as arrows; rows are named by their request', async ({
  page,
}) => {
  await page.goto(URL);
  await page
    .getByTestId('file-input')
    .setInputFiles(resolve(FIXTURES, 'otlp/sglang_otel_trace.json'));
  const first = page.getByTestId('timeline-row').first();
  await expect(first).toHaveAttribute('data-bars', /\d+/);
  // the row names the request it is (the decode half's root), on its service
  await expect(first.getByTestId('row-name')).toHaveText(/^decode Req [0-9a-f]{8}$/);
  await expect(first.locator('.row-source')).toHaveText('sglang');
  // through the router both halves are one trace already: nothing to join
  await expect(page.getByTestId('join-bootstrap')).toHaveCount(0);
  // zoom to the first row so that linked slices are wide enough to be drawn apart
  await first.click();
  await page.keyboard.press('f');
  await expect(first).toHaveAttribute('data-links', /^[1-9]\d*$/);
});

test('without the router, PD halves are joined by bootstrap_room by default; a toggle splits them', async ({
  page,
}) => {
  await page.goto(URL);
  const text = otlpWithoutRouter(
    readFileSync(resolve(FIXTURES, 'otlp/sglang_otel_trace.json'), 'utf8'),
  );
  await page.getByTestId('file-input').setInputFiles({
    name: 'otel_trace_no_router.json',
    mimeType: 'application/json',
    buffer: Buffer.from(text),
  });
  await expect(page.getByTestId('row-count')).toContainText('/ 20 rows');
  const join = page.getByTestId('join-bootstrap');
  await expect(join).toBeChecked();
  const first = page.getByTestId('timeline-row').first();
  await expect(first.getByTestId('row-name')).toHaveText(/^decode Req [0-9a-f]{8}$/);
  await join.click();
  await expect(page.getByTestId('row-count')).toContainText('/ 40 rows');
  await expect(page.getByTestId('join-bootstrap')).not.toBeChecked();
  await expect(page.getByTestId('timeline-row').first().getByTestId('row-name')).toHaveText(
    /^(prefill|decode) Req [0-9a-f]{8}$/,
  );
});

test('opening one file of a rotated set by path offers the set; a folder opens every trace it holds', async ({
  request,
}) => {
  const call = (method: string, args: unknown[]) =>
    request
      .post('/api/call', { data: { method, args }, headers: { 'x-trace-token': 'e2e-test-token' } })
      .then((r) => r.json());
  const one = (await call('open', [
    {
      openId: 'o1',
      sources: [{ kind: 'path', path: resolve(FIXTURES, 'otlp/roll_traces.1.jsonl') }],
    },
  ])) as {
    result: { ok: boolean; file: { rotatedSet: string[]; spans: number } };
  };
  expect(one.result.ok).toBe(true);
  expect(one.result.file.spans).toBe(801);
  expect(one.result.file.rotatedSet.map((p) => p.split('/').pop())).toEqual([
    'roll_traces.jsonl',
    'roll_traces.1.jsonl',
  ]);
  // a folder opens every trace it holds: the first in name order answers the call, the others
  // open as tabs of their own, the rotated set as one (spans: tests/fixtures/otlp/README.md)
  const folder = (await call('open', [
    { openId: 'o2', sources: [{ kind: 'path', path: resolve(FIXTURES, 'otlp') }] },
  ])) as {
    result: { ok: boolean; file: { name: string; spans: number } };
  };
  expect(folder.result.ok).toBe(true);
  expect([folder.result.file.name, folder.result.file.spans]).toEqual([
    'otlp_mixed_garbage.jsonl',
    36,
  ]);
  await expect
    .poll(async () => {
      const files = ((await call('listFiles', [])) as { result: { name: string; spans: number }[] })
        .result;
      return files
        .filter((f) => f.name !== 'otlp_mixed_garbage.jsonl' && f.name !== 'roll_traces.1.jsonl')
        .map((f) => [f.name, f.spans])
        .sort();
    })
    .toEqual(
      expect.arrayContaining([
        ['otlp_truncated.jsonl', 56],
        ['roll_traces.jsonl (+1)', 2348 + 801],
        ['sglang_otel_trace.json', 1396],
      ]),
    );
});
