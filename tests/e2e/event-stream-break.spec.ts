import { test, expect, type Page } from '@playwright/test';
import type { ChildProcess } from 'node:child_process';
import { startServe } from './support/start-serve';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { writeSlimeDump } from '../bench/slime-dump-writer.mjs';
import { serveCaller } from '../support/serve-call';
import { startEventsCuttingProxy, type EventsCuttingProxy } from './support/events-cutting-proxy';

/**
 * Serve mode's event stream breaks (a network hiccup, a proxy) while a file named at start-up
 * is read, and the open ends meanwhile: its 'cancelled' or 'done' never reaches the page. Once
 * the stream is back the page asks what is going on, and the opening tab goes (it used to stay
 * for good, which is how a clean CI run once failed serve-start.spec.ts after Cancel).
 */
const CLI = resolve(__dirname, '../../out/main/cli.js');
// beside the suite's own server (E2E_PORT), so checkouts side by side do not collide
const PORT = Number(process.env.E2E_PORT ?? 4791) + 8;
const TOKEN = 'event-stream-break-token';
const SAMPLES = 30_000;
const call = serveCaller(() => PORT, TOKEN);

// the dump is written and read on a machine that may be busy (the suite runs beside a CPU hog):
// every wait below is for the app's state, none bounded by Playwright's default 5 s
test.describe.configure({ timeout: 240_000 });
const APP_STATE_MS = 90_000;

let dir: string;
let dump: string;
let server: ChildProcess;
let proxy: EventsCuttingProxy;

test.beforeAll(() => {
  test.setTimeout(240_000);
  dir = mkdtempSync(join(tmpdir(), 'te-event-stream-break-'));
  // short token lists: seconds to open, time enough to break the stream while it is read
  dump = join(dir, 'rollout_big.pt');
  writeSlimeDump(dump, Infinity, 150, SAMPLES);
});

test.beforeEach(async () => {
  // a server per test: each opens the dump at start-up
  ({ server } = await startServe(CLI, PORT, TOKEN, [dump]));
  proxy = await startEventsCuttingProxy(PORT);
});

test.afterEach(async () => {
  await proxy.close();
  const exited = new Promise((done) => server.once('exit', done));
  server.kill();
  await exited;
});

test.afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The page through the proxy, once the dump's first rows show beside its opening tab. */
async function readingThroughProxy(page: Page) {
  await page.goto(`http://127.0.0.1:${proxy.port}/?token=${TOKEN}`);
  const opening = page.getByTestId('opening-tab');
  await expect(opening).toContainText('rollout_big.pt', { timeout: APP_STATE_MS });
  await expect(page.getByTestId('timeline-row').first()).toBeVisible({ timeout: APP_STATE_MS });
  return opening;
}

/** What serve mode says is still opening (asked beside the page, not through the proxy). */
const openingNow = async () => (await call('openingNow', [])).body.result;

test('cancelled while the event stream is broken: once it is back, the opening tab and the rows go', async ({
  page,
}) => {
  const opening = await readingThroughProxy(page);
  proxy.cut();
  await opening.getByTestId('cancel-open').click();
  // serve mode has ended the open; the page never heard
  await expect.poll(openingNow, { timeout: APP_STATE_MS }).toEqual([]);
  await expect(opening).toBeVisible();
  await expect(page.getByTestId('file-tab')).toHaveCount(1);

  proxy.reconnect();
  await expect(opening).toHaveCount(0, { timeout: APP_STATE_MS });
  await expect(page.getByTestId('file-tab')).toHaveCount(0);
  expect(proxy.streamsAnswered()).toBe(2);
});

test('read to its end while the event stream is broken: once it is back, the tab holds the whole file', async ({
  page,
}) => {
  const opening = await readingThroughProxy(page);
  proxy.cut();
  await expect.poll(openingNow, { timeout: APP_STATE_MS }).toEqual([]);
  await expect(opening).toBeVisible();

  proxy.reconnect();
  await expect(opening).toHaveCount(0, { timeout: APP_STATE_MS });
  await expect(page.getByTestId('file-tab')).toHaveCount(1);
  await expect(page.getByTestId('row-count')).toHaveAttribute('data-total', String(SAMPLES), {
    timeout: APP_STATE_MS,
  });
  expect(proxy.streamsAnswered()).toBe(2);
});
