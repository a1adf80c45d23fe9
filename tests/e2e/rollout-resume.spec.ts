import { test, expect, type Page } from '@playwright/test';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { writeSlimeDump } from '../bench/slime-dump-writer.mjs';
import { fileOpen } from './support/app-ready';

// rollout_8.pt resumes groups 0 and 1 (rows 0-7) of rollout 7, an hour earlier (fixture README)
const SLIME = resolve(__dirname, '../fixtures/slime');
const URL = '/?token=e2e-test-token';

async function open8(page: Page) {
  await page.goto(URL);
  await page.getByTestId('file-input').setInputFiles(resolve(SLIME, 'rollout_8.pt'));
  await fileOpen(page, 'rollout_8.pt');
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
  // 24 rows would not fit expanded, so they open collapsed (issue 16): all 24 on screen
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

test.describe('the groups view of 1,000 samples (125 groups of 8)', () => {
  test.setTimeout(60_000);
  let dir = '';
  let path = '';
  test.beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'trace-explorer-e2e-groups-'));
    path = join(dir, 'rollout_1k.pt');
    // the bench's writer: groups of 8 samples, 16 tokens each (a few MB)
    writeSlimeDump(path, Infinity, 16, 1000);
  });
  test.afterAll(() => rmSync(dir, { recursive: true, force: true }));

  test('shows a page of 100 groups, the rest a click away; a new sort starts again at its first page', async ({
    page,
  }) => {
    await page.goto(URL);
    await page.getByTestId('file-input').setInputFiles(path);
    await fileOpen(page, 'rollout_1k.pt');
    await expect(page.getByTestId('timeline-row').first()).toHaveAttribute('data-bars', /\d+/);
    await page.getByTestId('view-groups').click();
    const lines = page.getByTestId('group-line');
    await expect(page.getByTestId('groups-view')).toContainText('125 groups');
    await expect(lines).toHaveCount(100);
    await expect(lines.first()).toHaveAttribute('data-group', '0');
    await expect(lines.nth(99)).toHaveAttribute('data-group', '99');
    const paging = page.getByTestId('groups-paging');
    await expect(paging).toContainText('100 of 125 shown');
    await page.getByTestId('groups-more').click();
    await expect(lines).toHaveCount(125);
    await expect(lines.last()).toHaveAttribute('data-group', '124');
    await expect(paging).toContainText('125 of 125 shown');
    await expect(page.getByTestId('groups-more')).toHaveCount(0);
    // an expanded group stays expanded after the next page comes
    await lines.nth(3).locator('.expander').click();
    await expect(page.locator('.sample-line')).toHaveCount(8);
    await page.getByTestId('groups-sort').selectOption('wall');
    await expect(lines).toHaveCount(100);
    await expect(paging).toContainText('100 of 125 shown');
    // the worker sorted every group: longest wall time first, across the page boundary too
    await page.getByTestId('groups-more').click();
    await expect(lines).toHaveCount(125);
    const walls = await lines.evaluateAll((rows) =>
      rows.map((row) => Number(row.getAttribute('data-wall-sec'))),
    );
    expect(walls).toHaveLength(125);
    expect(walls.every((wall) => wall > 0)).toBe(true);
    expect(walls).toEqual([...walls].sort((a, b) => b - a));
  });
});
