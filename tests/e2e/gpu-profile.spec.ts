import { test, expect } from '@playwright/test';
import type { ChildProcess } from 'node:child_process';
import { resolve } from 'node:path';
import { startServe } from './support/start-serve';
import { gotoReady } from './support/app-ready';
import { hoverLaunchedKernel } from './support/hover-launched-kernel';

/**
 * The gpu fixture folder (two ranks of HTA's Kineto traces, tests/fixtures/gpu/README.md) opens
 * as one GPU profile: a row per rank with its GPU streams as lanes; the GPU view lists the
 * largest idle gaps with their causes, and a gap's button zooms the timeline to it.
 */
const CLI = resolve(__dirname, '../../out/main/cli.js');
const GPU = resolve(__dirname, '../fixtures/gpu');
// beside the suite's own server (E2E_PORT), so checkouts side by side do not collide
const PORT = Number(process.env.E2E_PORT ?? 4791) + 25;
const TOKEN = 'gpu-token';

let server: ChildProcess;

test.beforeAll(async () => {
  ({ server } = await startServe(CLI, PORT, TOKEN, [GPU]));
});

test.afterAll(() => {
  server?.kill();
});

test("the gpu folder opens as one profile: both ranks' streams, the largest idle gap's cause", async ({
  page,
}) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  await gotoReady(page, `http://127.0.0.1:${PORT}/?token=${TOKEN}`);
  await expect(page.getByTestId('file-tab')).toHaveCount(1);
  await expect(page.getByTestId('row-count')).toContainText('2 / 2 rows');
  // opened with the first rank's threads and streams shown, as Perfetto and HTA show a rank;
  // the second, which does not fit beside it at 1440x900, one click away
  const rank1 = page.getByTestId('timeline-row').filter({ hasText: 'rank 1' });
  await expect(page.getByTestId('timeline-row').filter({ hasText: 'rank 0' })).toHaveAttribute(
    'data-expanded',
    'true',
  );
  await expect(rank1).toHaveAttribute('data-expanded', 'false');
  await rank1.getByRole('button', { name: 'Expand row' }).click();
  for (const rank of ['rank 0', 'rank 1']) {
    const row = page.getByTestId('timeline-row').filter({ hasText: rank });
    await expect(row).toHaveAttribute('data-expanded', 'true');
    // every stream with kernels is a lane of its rank (Kineto's GPU process is the device)
    const device = rank === 'rank 0' ? 'GPU 0' : 'GPU 1';
    for (const stream of [7, 23, 25, 84, 203]) {
      await expect(
        row.getByTestId('lane-name').filter({ hasText: `${device} stream ${stream}` }),
      ).toHaveCount(1);
    }
  }
  // launches link to their kernels: too many to draw all, a kernel's arrow shows on hover, its
  // kind and launch in the tooltip
  const rank0Row = page.getByTestId('timeline-row').filter({ hasText: 'rank 0' });
  await expect(rank0Row).toHaveAttribute('data-links', '0');
  const stream = rank0Row.getByTestId('lane-name').filter({ hasText: 'GPU 0 stream 7' });
  expect(await hoverLaunchedKernel(page, stream, 2)).toBe(true);
  const tooltip = page.getByTestId('tooltip');
  await expect(tooltip.getByTestId('tooltip-category')).toHaveText(
    /^(computation|communication|memory) kernel$/,
  );
  await expect(rank0Row).toHaveAttribute('data-links', /^[1-9]\d*$/);
  await expect(page.getByTestId('legend-category').first()).toHaveText(/^computation kernels /);
  const rank0 = page.getByTestId('timeline-row').filter({ hasText: 'rank 0' });
  const barsWhole = Number(await rank0.getAttribute('data-bars'));

  await page.getByTestId('view-gpu').click();
  await expect(page.getByTestId('gpu-rank')).toHaveCount(2);
  await expect(page.getByTestId('gpu-rank').first()).toContainText('53.56%');
  // rank 0's largest gap: 57 ms before an FP8 conversion kernel, launched early in the gap
  // and queued for 56 ms (not a host wait)
  const cause = page.getByTestId('gpu-idle-gap-cause').first();
  await expect(cause).toHaveText(
    '57 ms idle: cudaLaunchKernel in fbgemm::FP8RowwiseQuantizedToFloat began 387 us into the gap, its kernel ran 56 ms after the launch (waiting on a sync, another stream or a collective)',
  );
  await page.getByTestId('gpu-idle-gap').first().click();
  await expect(page.getByTestId('view-timeline')).toHaveAttribute('aria-selected', 'true');
  // zoomed to the gap: far fewer of rank 0's bars are in view than with the whole profile
  await expect
    .poll(async () => Number(await rank0.getAttribute('data-bars')))
    .toBeLessThan(barsWhole / 4);
});
