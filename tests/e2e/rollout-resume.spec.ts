import { test, expect, type Page } from '@playwright/test';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';

// rollout_8.pt resumes groups 0 and 1 (rows 0-7) of rollout 7, an hour earlier (fixture README)
const SLIME = resolve(__dirname, '../fixtures/slime');
const URL = '/?token=e2e-test-token';

async function open8(page: Page) {
  await page.goto(URL);
  await page.getByTestId('file-input').setInputFiles(resolve(SLIME, 'rollout_8.pt'));
  await expect(page.getByTestId('file-tab')).toContainText('rollout_8.pt');
  await expect(page.getByTestId('timeline-row').first()).toHaveAttribute('data-bars', /\d+/);
}

test('the timeline opens on the rollout’s own window; earlier attempts are one click away, the wait drawn as idle gaps', async ({
  page,
}) => {
  await open8(page);
  // deliberately ours: slime's viewer spans the whole hour (its cache's global_start/global_end);
  // we open on the rollout's own 58.3 s and keep the hour one click away
  const cache = JSON.parse(readFileSync(resolve(SLIME, 'rollout_8.pt.expected.json'), 'utf8')) as {
    global_start: number;
    global_end: number;
  };
  expect(cache.global_end - cache.global_start).toBeGreaterThan(3600);
  const chip = page.getByTestId('rollout-window');
  await expect(chip).toContainText("This rollout's own window (58.3 s)");
  await page.getByTestId('rollout-window-toggle').click();
  await expect(chip).toContainText('Whole file, earlier attempts included (1.01 h)');
  // collapsed rows, all 24 on screen: rows open collapsed when, expanded, they would not fit
  // (issue 16), so the toolbar offers to expand them
  await expect(page.getByRole('button', { name: 'Expand all rows' })).toBeVisible();
  const row = (id: number) => page.locator(`[data-testid=timeline-row][data-row-id="${id}"]`);
  // resumed rows draw their idle gap, a row of rollout 8 alone draws none
  await expect(row(0)).toHaveAttribute('data-idle-gaps', '1');
  await expect(row(7)).toHaveAttribute('data-idle-gaps', '1');
  await expect(row(8)).toHaveAttribute('data-idle-gaps', '0');
  await page.getByTestId('rollout-window-toggle').click();
  await expect(chip).toContainText("This rollout's own window");
});

test('the perf view says which window its figures use and links the resumed samples', async ({
  page,
}) => {
  await open8(page);
  await page.getByTestId('view-perf').click();
  await expect(page.getByTestId('perf-window')).toContainText(
    "over this rollout's own window: 3570.0-3628.3 s (58.3 s); earlier attempts of 8 resumed samples left out",
  );
  await expect(
    page.getByTestId('perf-card').filter({ hasText: 'rollout wall time' }),
  ).toContainText('58.33 s');
  await expect(page.getByTestId('perf-stragglers')).toContainText(
    'the last 3 samples (12.5%) kept the rollout open for',
  );
  await page.getByTestId('perf-resumed').click();
  await expect(page.getByTestId('row-count')).toContainText('8 / 24 rows');
});

test('the groups view: one line per group, zero-variance group flagged, sort, filter, expand', async ({
  page,
}) => {
  await open8(page);
  await page.getByTestId('view-groups').click();
  const lines = page.getByTestId('group-line');
  await expect(lines).toHaveCount(6);
  // rollout_7_vs_8.compare.expected.json: one zero-variance group in rollout 8 (group 5)
  await expect(page.getByTestId('groups-view')).toContainText(
    '6 groups · 1 with zero reward variance',
  );
  await page.getByTestId('groups-filter').selectOption('zero-variance');
  await expect(lines).toHaveCount(1);
  await expect(lines.first()).toHaveAttribute('data-group', '5');
  await page.getByTestId('groups-filter').selectOption('resumed');
  await expect(lines).toHaveCount(2);
  await page.getByTestId('groups-filter').selectOption('all');
  await page.getByTestId('groups-sort').selectOption('wall');
  // group 2 ends last (its band reaches the window's end): the longest wall time
  await expect(lines.first()).toHaveAttribute('data-group', '2');
  await lines.first().locator('.expander').click();
  await expect(page.locator('.sample-line')).toHaveCount(4);
});
