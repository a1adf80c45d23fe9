import { test, expect, type Page } from '@playwright/test';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { dropFixtures } from './support/drop-files';

const FIXTURES = resolve(__dirname, '../fixtures');
const URL = '/?token=e2e-test-token';

/** slime's own rows of a dump (its viewer's cache): index, status and duration by row id */
function slimeRows(name: string) {
  const cache = JSON.parse(
    readFileSync(resolve(FIXTURES, 'slime', `${name}.expected.json`), 'utf8'),
  ) as {
    rows: { row_id: number; sample_index: number; status: string }[];
  };
  return cache.rows;
}

async function dropTwo(page: Page, a: string, b: string) {
  await page.goto(URL);
  await dropFixtures(page, a, b);
  await expect(page.getByTestId('compare-view')).toBeVisible();
  await page.getByRole('tab', { name: 'Matched samples' }).click();
}

// The matched-samples table draws only the rows in its scrolling box and fetches only theirs
// (issue 18: 100k pairs); scrolled to its end it shows the last pair.
test('a dump against itself: 24 pairs by index, only those in view drawn, the last after a scroll', async ({
  page,
}) => {
  await page.setViewportSize({ width: 1280, height: 600 });
  await dropTwo(page, 'slime/rollout_8.pt', 'slime/rollout_8.pt');
  const rows = slimeRows('rollout_8.pt');
  await expect(page.getByTestId('match-counts')).toContainText(
    '24 matched · 0 only in A · 0 only in B · matched by index',
  );
  const pairs = page.getByTestId('matched-pair');
  // nothing moved, so A's order: the first pair is row 0 with its index and status, on both sides
  await expect(pairs.first()).toContainText(
    `index ${rows[0].sample_index}#${rows[0].sample_index} ${rows[0].status}`,
  );
  // a box of 60% of 600 px holds 14 rows of 25 px: fewer than 24 are in the page
  const drawn = await pairs.count();
  expect(drawn).toBeLessThan(24);
  expect(drawn).toBeGreaterThan(10);
  await page.getByTestId('matched-pairs').evaluate((box) => box.scrollTo(0, box.scrollHeight));
  const last = rows[23];
  await expect(pairs.last()).toContainText(
    `index ${last.sample_index}#${last.sample_index} ${last.status}`,
  );
  await expect(page.getByTestId('only-a')).toHaveCount(0);
});

test('other prompts: nothing matched; the only-in lists name each side’s rows, a box of them at a time', async ({
  page,
}) => {
  await page.setViewportSize({ width: 1280, height: 600 });
  await dropTwo(page, 'slime/rollout_7.pt', 'slime/rollout_8.pt');
  await expect(page.getByTestId('match-counts')).toContainText(
    '0 matched · 24 only in A · 24 only in B',
  );
  await expect(page.getByTestId('matched-pairs')).toHaveCount(0);
  const onlyB = page.getByTestId('only-b').getByTestId('only-row');
  const rows = slimeRows('rollout_8.pt');
  await expect(onlyB.first()).toContainText(`#${rows[0].sample_index}`);
  await expect(onlyB.first()).toContainText(rows[0].status);
  // 30% of 600 px: 8 rows of 25 px in view, so fewer than the 24 are drawn
  expect(await onlyB.count()).toBeLessThan(24);
});
