import { test, expect } from '@playwright/test';
import type { ChildProcess } from 'node:child_process';
import { startServe } from './support/start-serve';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { writeSlimeDump } from '../bench/slime-dump-writer.mjs';
import { APP_SIGNAL_MS } from './support/app-ready';
import { signalOrder, watchSignalsFromLoad } from './support/signal-order';

/**
 * `trace-explorer serve FILE` with a file that takes seconds to open: the page shows its
 * progress and Cancel at once (it used to show the empty "drop files" page until the file was
 * read), then its first rows while the rest is read; the terminal says which named files
 * failed and why.
 */
const CLI = resolve(__dirname, '../../out/main/cli.js');
// beside the suite's own server (E2E_PORT), so checkouts side by side do not collide
const PORT = Number(process.env.E2E_PORT ?? 4791) + 6;
const TOKEN = 'serve-start-token';

let dir: string;
let server: ChildProcess;
let serveStderr: () => string = () => '';

test.beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'te-serve-start-'));
  // 30k samples with short token lists: several seconds to open on this machine
  const dump = join(dir, 'rollout_big.pt');
  writeSlimeDump(dump, Infinity, 150, 30_000);
  const started = await startServe(CLI, PORT, TOKEN, [dump, join(dir, 'missing.pt')]);
  server = started.server;
  serveStderr = started.stderr;
});

test.afterAll(() => {
  server?.kill();
  rmSync(dir, { recursive: true, force: true });
});

test('a named file shows its progress and Cancel first, its first rows while it is read, and Cancel stops it', async ({
  page,
}) => {
  // the app's own signals from the page's first render, in the order they show (how soon the
  // progress shows: `npm run bench feedback`)
  await watchSignalsFromLoad(page, {
    opening: '[data-testid=opening-tab]',
    rows: '[data-testid=timeline-row]',
    open: '[data-testid=file-tab][data-state=open]',
  });
  await page.goto(`http://127.0.0.1:${PORT}/?token=${TOKEN}`);
  const opening = page.getByTestId('opening-tab');
  await expect(opening).toContainText('rollout_big.pt', { timeout: APP_SIGNAL_MS });
  await expect(page.getByTestId('empty-state')).toHaveCount(0);
  // issue 18: rows stream to the view as they are read, beside the progress that goes on
  // the first rows read: however long a busy machine takes to read them
  await expect(page.getByTestId('timeline-row').first()).toBeVisible({ timeout: APP_SIGNAL_MS });
  await expect(page.getByTestId('file-tab')).toContainText('rollout_big.pt');
  await expect(opening).toBeVisible();
  // its progress first, then its first rows, the file still being read (not yet open)
  expect(await signalOrder(page)).toEqual(['opening', 'rows']);
  await opening.getByTestId('cancel-open').click();
  // ending the reading worker can take seconds on a loaded machine (CI beside other work)
  await expect(opening).toHaveCount(0, { timeout: 20_000 });
  // cancelled: the rows shown so far go with it
  await expect(page.getByTestId('file-tab')).toHaveCount(0, { timeout: 20_000 });
  // the missing file is said in the terminal, with its code
  await expect
    .poll(() => serveStderr())
    .toContain('could not open missing.pt: no such file [io/not-found]');
});
