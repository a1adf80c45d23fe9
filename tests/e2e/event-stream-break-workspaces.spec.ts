import { test, expect, type Page } from '@playwright/test';
import type { ChildProcess } from 'node:child_process';
import { copyFileSync, cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { writeSlimeDump } from '../bench/slime-dump-writer.mjs';
import { startServe } from './support/start-serve';
import { startEventsCuttingProxy, type EventsCuttingProxy } from './support/events-cutting-proxy';
import { watchHostEvents, type HostEventsWatcher } from './support/host-events-watcher';

/**
 * Serve mode's event stream breaks while a run tab or a trends tab is still opening, and what
 * main says meanwhile ('run-updated', 'trends-progress') never reaches the page. Once the stream
 * is back the page asks main where each of them is: the run tab shows the finished run (it used
 * to say "joins so far" with files still reading, for good), the trends tab the dumps read
 * meanwhile (it used to show them still reading until the last dump was in).
 */
const CLI = resolve(__dirname, '../../out/main/cli.js');
const RUN = resolve(__dirname, '../fixtures/run');
// beside the suite's own server (E2E_PORT), so checkouts side by side do not collide
const RUN_PORT = Number(process.env.E2E_PORT ?? 4791) + 12;
const TRENDS_PORT = RUN_PORT + 1;
const TOKEN = 'event-stream-break-workspaces-token';

// the dumps are written and read on a machine that may be busy (the suite runs beside a CPU
// hog): every wait is for the app's state; the test's own budget is not the default minute
test.describe.configure({ timeout: 600_000 });
const APP_STATE_MS = 240_000;

let dir: string;
let proxy: EventsCuttingProxy | null = null;
let watcher: HostEventsWatcher | null = null;

test.beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'te-event-stream-break-workspaces-'));
});

/** the test's serve mode: ended after the test even when the test ran out of time */
let serving: ChildProcess | null = null;

test.afterEach(async () => {
  serving?.kill();
  serving = null;
  watcher?.close();
  await proxy?.close();
  rmSync(dir, { recursive: true, force: true });
});

/** Serve mode on `paths`, its own event stream watched, and the page through a cutting proxy. */
async function serveThroughProxy(page: Page, port: number, paths: string[]) {
  const started = await startServe(CLI, port, TOKEN, paths, {
    ...process.env,
    TRACE_EXPLORER_CACHE_DIR: join(dir, 'cache'),
  });
  watcher = await watchHostEvents(port, TOKEN);
  proxy = await startEventsCuttingProxy(port);
  serving = started.server;
  await page.goto(`http://127.0.0.1:${proxy.port}/?token=${TOKEN}`);
  return started.server;
}

test('a run that finishes opening while the event stream is broken shows whole once it is back', async ({
  page,
}) => {
  // the fixture run and a dump that takes seconds to read, so the run is still opening when the
  // stream breaks
  for (const name of ['rollout_0.pt', 'rollout_1.pt', 'sglang_otel_trace.json'])
    copyFileSync(join(RUN, name), join(dir, name));
  cpSync(join(RUN, 'comm_timeline'), join(dir, 'comm_timeline'), { recursive: true });
  writeSlimeDump(join(dir, 'rollout_2.pt'), Infinity, 150, 30_000, { rolloutId: 2 });
  const server = await serveThroughProxy(page, RUN_PORT, [dir]);
  try {
    const strip = page.getByTestId('run-progress');
    await expect(strip).toBeVisible({ timeout: APP_STATE_MS });
    await expect(page.getByTestId('run-counts')).toContainText('samples', {
      timeout: APP_STATE_MS,
    });
    proxy!.cut();
    // main finished the run; the page never heard
    await watcher!.next((e) => e.type === 'run-updated' && e.result.complete, APP_STATE_MS);
    await expect(strip).toBeVisible();
    await expect(page.getByTestId('run-opening-tab')).toHaveCount(1);

    proxy!.reconnect();
    await expect(strip).toHaveCount(0, { timeout: APP_STATE_MS });
    await expect(page.getByTestId('run-opening-tab')).toHaveCount(0);
    await expect(page.getByTestId('run-tab')).toHaveCount(1);
    await expect(page.getByTestId('run-view')).toHaveAttribute('data-state', 'complete', {
      timeout: APP_STATE_MS,
    });
    // every file in, once: the fixture's 64 samples and the big dump's
    await expect(page.getByTestId('run-counts')).toContainText('30064 samples · 64 joined');
    await expect(page.locator('[data-testid=lane-row][data-group=trainer]')).toHaveCount(2);
    await expect(page.getByTestId('opening-tab')).toHaveCount(0);
    expect(proxy!.streamsAnswered()).toBe(2);
  } finally {
    server.kill();
  }
});

test('dumps read while the event stream is broken show as read once it is back, before the rest', async ({
  page,
}) => {
  // a dump read in a moment and one that takes seconds, each on a thread of its own
  writeSlimeDump(join(dir, 'rollout_0.pt'), Infinity, 150, 4_000, { rolloutId: 0 });
  writeSlimeDump(join(dir, 'rollout_1.pt'), Infinity, 150, 50_000, { rolloutId: 1, seed: 7 });
  const server = await serveThroughProxy(page, TRENDS_PORT, [dir]);
  try {
    const reading = page.getByTestId('trends-reading');
    // both dumps heard of, neither read yet
    await expect(reading).toContainText('0 of 2 done', { timeout: APP_STATE_MS });
    proxy!.cut();
    // main read the small dump; the page never heard
    await watcher!.next(
      (e) =>
        e.type === 'trends-progress' &&
        e.progress.path.endsWith('rollout_0.pt') &&
        e.progress.state === 'done',
      APP_STATE_MS,
    );
    await expect(reading).not.toContainText('1 of 2 done');

    proxy!.reconnect();
    // while the big dump is still being read
    await expect(reading).toContainText('1 of 2 done', { timeout: APP_STATE_MS });
    await expect(page.getByTestId('trends-counts')).toContainText('2 rollouts', {
      timeout: APP_STATE_MS,
    });
    expect(proxy!.streamsAnswered()).toBe(2);
  } finally {
    server.kill();
  }
});
