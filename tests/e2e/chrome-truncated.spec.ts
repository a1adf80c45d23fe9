import { test, expect } from '@playwright/test';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileOpen } from './support/app-ready';

/**
 * A trace cut off after its events began (a crashed writer, a partial copy) opens with the
 * events before the cut, and its notice says where it was cut: the file, the byte, the event.
 */
const FIXTURES = resolve(__dirname, '../fixtures');
const URL = '/?token=e2e-test-token';

test('a Chrome trace cut inside an event opens its events before the cut, with the notice', async ({
  page,
}) => {
  const whole = readFileSync(resolve(FIXTURES, 'chrome/torch_profiler_train_cpu.json'));
  await page.goto(URL);
  await page.getByTestId('file-input').setInputFiles({
    name: 'crashed.json',
    mimeType: 'application/json',
    buffer: whole.subarray(0, 60_000),
  });
  await fileOpen(page, 'crashed.json');
  await expect(page.getByTestId('row-count')).toContainText('1 / 1 rows');
  const row = page.getByTestId('timeline-row').first();
  await expect(row).toContainText('CPU functions');
  await expect(row).toHaveAttribute('data-bars', /^[1-9]\d*$/);
  await expect(page.getByTestId('file-notices').locator('.notice').first()).toHaveText(
    /^chrome-trace\/truncated: crashed\.json is cut off at byte 60000, inside event \d+ \(which starts at byte \d+\): opened with the \d+ events before the cut$/,
  );
});

test('a gzipped Kineto rank cut short opens as a GPU profile whose rank says it is cut', async ({
  page,
}) => {
  const gzipped = readFileSync(resolve(FIXTURES, 'run_gpu/rank-0.trace.json.gz'));
  const half = gzipped.subarray(0, gzipped.length >> 1);
  await page.goto(URL);
  await page.getByTestId('file-input').setInputFiles({
    name: 'rank-0.trace.json.gz',
    mimeType: 'application/gzip',
    buffer: half,
  });
  await fileOpen(page, 'rank-0.trace.json.gz');
  await expect(page.getByTestId('row-count')).toContainText('1 / 1 rows');
  const notices = page.getByTestId('file-notices');
  await expect(notices).toContainText(
    `gzip/truncated: rank-0.trace.json.gz is cut short: its gzip stream ends at byte ${half.length}`,
  );
  await expect(notices).toContainText(
    'chrome-trace/truncated: rank 0 (rank-0.trace.json.gz) is cut off at byte',
  );
});
