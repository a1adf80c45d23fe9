import { test, expect } from '@playwright/test';
import { dropFixtures } from './support/drop-files';

const URL = '/?token=e2e-test-token';

/** rollout 8 resumes 8 samples of rollout 7 an hour later (tests/fixtures/slime/README.md) */
test('compare 7 vs 8: the answer on top names the idle time between attempts and links the resumed rows', async ({
  page,
}) => {
  await page.goto(URL);
  await dropFixtures(page, 'slime/rollout_7.pt', 'slime/rollout_8.pt');
  const answer = page.getByTestId('compare-answer');
  await expect(answer).toContainText(
    '3539 s are idle time before the second attempts of 8 samples resumed from rollout 7',
  );
  await expect(answer).toContainText("In its own window B took 58.3 s against A's 42.0 s");
  await expect(answer).toContainText(
    'B ended with sample #9 (group 2) (truncated, retried: attempt 2)',
  );
  // response length from the samples (rollout_7_vs_8.compare.expected.json), with its unit
  const length = page.locator(
    '[data-testid^=perf-diff-table] tr[data-metric="response_length/mean"]',
  );
  await expect(length).toHaveAttribute('data-a', '1487.375');
  await expect(length).toHaveAttribute('data-b', '2364');
  await expect(length.locator('td.unit')).toHaveText('tokens');
  // +700% on a 0.4 ms change is noise, not red
  await expect(
    page.locator(
      '[data-testid^=perf-diff-table] tr[data-metric="perf/prefill/alloc_wait_duration/min"]',
    ),
  ).toHaveAttribute('data-verdict', 'noise');
  await expect(page.getByTestId('noise-rule')).toContainText(
    'at least 5% of the larger side and at least 10 ms',
  );
  // ... and it sits under the small changes fold, in µs (issue 48)
  const smallFold = page.getByTestId('small-changes');
  await smallFold.locator('summary').click();
  const tinyRow = smallFold.locator('tr[data-metric="perf/prefill/alloc_wait_duration/min"]');
  await expect(tinyRow.locator('td.unit')).toHaveText('µs');
  // the idle hour heads the figures, in minutes; the mean row duration says it is the resumed rows'
  const firstRows = page.locator('[data-testid=perf-diff-table] tbody tr');
  await expect(firstRows.nth(1)).toHaveAttribute(
    'data-metric',
    'rollout/idle_between_attempts_sec',
  );
  await expect(firstRows.nth(1).locator('td.unit')).toHaveText('min');
  await expect(
    page.locator('[data-testid=perf-diff-table] tr[data-metric="row_duration/mean_sec"]'),
  ).toContainText("includes B's 8 resumed rows");
  // a figure that counts samples is a link to them: rollout 8's 2 aborted samples (expected.json)
  await expect(
    page.locator('[data-testid^=perf-diff-table] tr[data-metric="status/aborted"] button'),
  ).toHaveText('2');
  await page.getByRole('tab', { name: 'Where the time went' }).click();
  await expect(
    page.locator('[data-testid=wall-time-table] tr[data-category="idle between attempts"]'),
  ).toContainText('59.0 min');
  // compared timelines align on each rollout's own window: B's axis starts near its 3570 s
  // (the own window's start), A's near 0, over the longer own window (58.3 s, 3% margins)
  await page.getByRole('tab', { name: 'Timelines' }).click();
  const axisStart = async (side: 'a' | 'b') =>
    Number(
      await page
        .getByTestId(`compare-side-${side}`)
        .getByTestId('time-axis')
        .getAttribute('data-start'),
    );
  await expect.poll(() => axisStart('b')).toBeCloseTo(3570 - 58.332262 * 0.03, 3);
  await expect.poll(() => axisStart('a')).toBeCloseTo(-58.332262 * 0.03, 3);
  // and both read time since their own window's start: the same labels at the same places,
  // where B's used to read from its file's start (0:59:30 ... 1:00:30)
  const side = (s: 'a' | 'b') => page.getByTestId(`compare-side-${s}`);
  const tickLabels = (s: 'a' | 'b') => side(s).getByTestId('axis-tick').allTextContents();
  await expect.poll(() => tickLabels('b')).toEqual(await tickLabels('a'));
  expect((await tickLabels('a'))[0]).toBe('0:00');
  expect(await tickLabels('a')).toContain('0:30');
  // the shared cursor reads the same moment on both
  const canvasA = await side('a').getByTestId('timeline-canvas').boundingBox();
  await page.mouse.move(canvasA!.x + canvasA!.width * 0.4, canvasA!.y + 5);
  const readoutAt = async (s: 'a' | 'b') =>
    /^at (\S+):/.exec((await side(s).getByTestId('cursor-readout').textContent()) ?? '')?.[1];
  await expect.poll(() => readoutAt('a')).toMatch(/^0:2\d\.\d+$/);
  expect(await readoutAt('b')).toBe(await readoutAt('a'));
  // a tooltip on B: row 0 (resumed) starts its group span at the own window's start; the row
  // expanded, as collapsed its PD phases are painted (and hovered) over the group span
  await side('b')
    .locator('[data-testid=timeline-row]')
    .first()
    .getByRole('button', { name: 'Expand row' })
    .click();
  const canvasB = await side('b').getByTestId('timeline-canvas').boundingBox();
  await page.mouse.move(canvasB!.x + canvasB!.width * 0.3, canvasB!.y + 10);
  await expect(side('b').getByTestId('tooltip')).toContainText(/0:00\.\d+ → 0:42\.\d+/);
  await page.mouse.move(0, 0);
  // the linked figure shows exactly those rows in B's compared timeline, compare stays open,
  // the first of them selected
  await answer.getByRole('button', { name: '8 samples resumed from rollout 7' }).click();
  await expect(page.getByTestId('compare-view')).toBeVisible();
  await expect(page.getByTestId('compare-count-b')).toHaveText('8 / 24 rows');
  await expect(page.getByTestId('compare-picked')).toContainText(
    '8 samples resumed from rollout 7',
  );
  await expect(side('b').locator('[data-testid=timeline-row].selected')).toHaveCount(1);
  await expect(page.getByTestId('compare-count-a')).toHaveText('24 / 24 rows');
  // with Ctrl, B's own tab with exactly those rows
  await answer
    .getByRole('button', { name: '8 samples resumed from rollout 7' })
    .click({ modifiers: ['Control'] });
  await expect(page.getByTestId('compare-view')).toHaveCount(0);
  await expect(page.getByTestId('row-count')).toContainText('8 / 24 rows');
});

test('stacked compared timelines show 15 rows each at 1440x900; the answer folds; A and B swap', async ({
  page,
}) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.goto(URL);
  await dropFixtures(page, 'slime/rollout_7.pt', 'slime/rollout_8.pt');
  await expect(page.getByTestId('compare-answer')).toContainText('3539 s are idle time');
  const fold = page.getByTestId('compare-answer-fold');
  await expect(fold).toHaveAttribute('data-folded', 'false');
  await page.getByRole('tab', { name: 'Timelines' }).click();
  // on the timelines the answer is one line
  await expect(fold).toHaveAttribute('data-folded', 'true');
  const answerBox = (await page.getByTestId('compare-answer').boundingBox())!;
  expect(answerBox.height).toBeLessThan(30);
  for (const s of ['a', 'b'] as const) {
    const pane = page.getByTestId(`compare-side-${s}`);
    await expect(pane.locator('[data-testid=timeline-row][data-bars]').first()).toBeVisible();
    // rows wholly inside the pane's scrolling box
    const whole = await pane.locator('.timeline-scroll').evaluate((scroll) => {
      const box = scroll.getBoundingClientRect();
      return [...scroll.querySelectorAll('[data-testid=timeline-row]')].filter((row) => {
        const r = row.getBoundingClientRect();
        return r.top >= box.top - 1 && r.bottom <= box.bottom + 1;
      }).length;
    });
    expect(whole, `side ${s}`).toBeGreaterThanOrEqual(15);
  }
  // one legend for both
  await expect(page.getByTestId('legend')).toHaveCount(1);
  // unfolded on a click
  await page.getByTestId('compare-answer-toggle').click();
  await expect(fold).toHaveAttribute('data-folded', 'false');
  // swap: B becomes A
  const header = page.locator('.compare-header .compare-file');
  await expect(header).toHaveText(['rollout_7.pt', 'rollout_8.pt']);
  await page.getByTestId('swap-compare').click();
  await expect(header).toHaveText(['rollout_8.pt', 'rollout_7.pt']);
  await expect(page.getByTestId('compare-answer')).toContainText('B took');
});
