import { test, expect } from '@playwright/test';
import type { ChildProcess } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { startServe } from './support/start-serve';

/**
 * A run whose SGLang server had HiCache with a storage tier: the log's prefix-cache hits moved
 * from device to `storage` (as sglang writes them when storage is on). A sample's details say
 * its hits' split with storage beside device and host.
 */
const CLI = resolve(__dirname, '../../out/main/cli.js');
const RUN = resolve(__dirname, '../fixtures/run');
const EXTRA = resolve(__dirname, '../fixtures/run_extra');
const LOG = 'sglang_request_metrics/sglang-request-metrics-20260825_09.log';
const PORT = Number(process.env.E2E_PORT ?? 4791) + 41;
const TOKEN = 'run-extra-storage-token';
/** a folder to save the details' screenshots in (light and dark, 1440x900) */
const SHOTS = process.env.RUN_EXTRA_SHOTS;

let server: ChildProcess;
let dir: string;

test.beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'te-run-storage-'));
  cpSync(RUN, dir, { recursive: true });
  cpSync(join(EXTRA, 'sglang_request_metrics'), join(dir, 'sglang_request_metrics'), {
    recursive: true,
  });
  const log = readFileSync(join(EXTRA, LOG), 'utf8').replace(
    /"cached_tokens_details": \{"device": (\d+), "host": 0\}/g,
    '"cached_tokens_details": {"device": 0, "host": 0, "storage": $1, "storage_backend": "HiCacheFile"}',
  );
  writeFileSync(join(dir, LOG), log);
  ({ server } = await startServe(CLI, PORT, TOKEN, [dir]));
});

test.afterAll(() => {
  server?.kill();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

test("a sample's prefix-cache hit says how much came from HiCache's storage tier", async ({
  page,
}) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.goto(`http://127.0.0.1:${PORT}/?token=${TOKEN}`);
  await expect(page.getByTestId('run-view')).toHaveCount(1, { timeout: 120_000 });
  await expect(page.getByTestId('run-joins-partial')).toHaveCount(0, { timeout: 120_000 });
  await page.getByTestId('run-sort').selectOption('cacheHit');
  // the first row now has the most cached tokens: all of them from storage
  await page
    .locator('[data-testid=lane-row][data-group=samples]')
    .first()
    .locator('.lane-label-name')
    .click();
  await expect(page.getByTestId('run-details')).toHaveAttribute('data-kind', 'sample');
  await expect(page.getByTestId('fig-cache-hit')).toHaveText(
    /^\d+\.\d\d % \(device 0, host 0, storage [1-9]\d*\)$/,
  );
  if (SHOTS) {
    await page.screenshot({ path: `${SHOTS}/details-storage-light.png` });
    await page.emulateMedia({ colorScheme: 'dark' });
    await page.screenshot({ path: `${SHOTS}/details-storage-dark.png` });
  }
});
