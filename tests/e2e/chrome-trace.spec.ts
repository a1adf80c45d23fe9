import { test, expect } from '@playwright/test';
import { resolve } from 'node:path';
import { gzipSync } from 'node:zlib';
import { fileOpen } from './support/app-ready';

const FIXTURES = resolve(__dirname, '../fixtures');
const URL = '/?token=e2e-test-token';

test('the torch.profiler Chrome trace opens: one process row, its spans drawn as bars', async ({
  page,
}) => {
  await page.goto(URL);
  await page
    .getByTestId('file-input')
    .setInputFiles(resolve(FIXTURES, 'chrome/torch_profiler_train_cpu.json'));
  await fileOpen(page, 'torch_profiler_train_cpu.json');
  await expect(page.getByTestId('row-count')).toContainText('1 / 1 rows');
  const row = page.getByTestId('timeline-row').first();
  await expect(row).toContainText('CPU functions');
  // depths 0..8 of tid 1 (rollout_step_n > phase > ops ...): nine lanes
  await expect(row).toHaveAttribute('data-lanes', '9');
  await expect(row).toHaveAttribute('data-bars', /^[1-9]\d*$/);
  // a click on the top lane at the left: rollout_step_0 (ts 980 of 875..83896 us)
  const canvas = page.getByTestId('timeline-canvas');
  const box = (await canvas.boundingBox())!;
  await page.mouse.click(box.x + box.width * 0.3, box.y + 8);
  await expect(page.getByTestId('span-details')).toContainText('rollout_step_0');
});

/** B/E, an s/f flow between two threads, async spans: written here, opened gzipped. */
const SYNTHETIC = {
  traceEvents: [
    { ph: 'M', name: 'process_name', pid: 7, args: { name: 'trainer' } },
    { ph: 'M', name: 'thread_name', pid: 7, tid: 1, args: { name: 'train' } },
    { ph: 'M', name: 'thread_name', pid: 7, tid: 2, args: { name: 'comm' } },
    { ph: 'B', name: 'step', pid: 7, tid: 1, ts: 100 },
    { ph: 'B', name: 'fwd', pid: 7, tid: 1, ts: 150 },
    { ph: 'E', pid: 7, tid: 1, ts: 400 },
    { ph: 'E', pid: 7, tid: 1, ts: 900 },
    { ph: 'X', name: 'allreduce', pid: 7, tid: 2, ts: 500, dur: 300 },
    { ph: 's', name: 'grads', id: 1, pid: 7, tid: 1, ts: 300 },
    { ph: 'f', name: 'grads', id: 1, pid: 7, tid: 2, ts: 600, bp: 'e' },
    { ph: 'b', name: 'request', cat: 'rpc', id: 1, pid: 'worker', tid: 'main', ts: 200 },
    { ph: 'e', name: 'request', cat: 'rpc', id: 1, pid: 'worker', tid: 'main', ts: 700 },
  ],
};

test('a gzipped Chrome trace opens; its flow is drawn as an arrow between two threads', async ({
  page,
}) => {
  await page.goto(URL);
  await page.getByTestId('file-input').setInputFiles({
    name: 'synthetic.json.gz',
    mimeType: 'application/gzip',
    buffer: gzipSync(Buffer.from(JSON.stringify(SYNTHETIC))),
  });
  await fileOpen(page, 'synthetic.json.gz');
  await expect(page.getByTestId('row-count')).toContainText('2 / 2 rows');
  const trainer = page.getByTestId('timeline-row').filter({ hasText: 'trainer (pid 7)' });
  // lanes: train (step, fwd), comm (allreduce)
  await expect(trainer).toHaveAttribute('data-lanes', '3');
  await expect(trainer).toHaveAttribute('data-bars', '3');
  await expect(trainer).toHaveAttribute('data-links', '1');
  const worker = page.getByTestId('timeline-row').filter({ hasText: 'worker' });
  await expect(worker).toHaveAttribute('data-bars', '1');
});
