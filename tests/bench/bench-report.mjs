// `npm run bench report` (issue 47): a shared report of a 10,000-sample real-shaped dump, beside
// `summary` of the same file in the same run. Goals: the report at most 20 MB; its timeline
// shown within 3 s from file:// in Chromium (the app's own signal: a timeline row with its bars
// drawn); making it at most 2x summary's time.
import { existsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium } from 'playwright-core';
import { writeSlimeDump } from './slime-dump-writer.mjs';

export async function benchReport({ root, data, cli, measure }) {
  const rows = Number(process.env.BENCH_REPORT_ROWS ?? 10_000);
  const fixture = join(root, 'tests/fixtures/slime/rollout_small.pt');
  const path = join(data, `rows_${rows}_real_v1.pt`);
  if (!existsSync(path)) writeSlimeDump(path, Infinity, 0, rows, { realSamples: [fixture] });
  const out = join(data, `rows_${rows}_real_v1.report.html`);
  const ok = (value, goal) => (value <= goal ? 'ok' : 'MISSED');
  console.log(`\n== shared report of a ${rows}-sample dump (${(statSync(path).size / 1e6).toFixed(1)} MB)`);
  const summary = measure(process.execPath, [cli, 'summary', '--json', path]);
  const report = measure(process.execPath, [cli, 'report', path, '-o', out]);
  const megabytes = statSync(out).size / 1e6;
  const ratio = report.seconds / summary.seconds;
  const shownSec = await timelineShownSec(out);
  console.log(
    `report ${megabytes.toFixed(1)} MB (goal 20 MB: ${ok(megabytes, 20)}); made in ${report.seconds.toFixed(2)} s, ` +
      `summary ${summary.seconds.toFixed(2)} s: ${ratio.toFixed(2)}x summary (goal 2x: ${ok(ratio, 2)}); ` +
      `peak ${report.peakMb.toFixed(0)} MB (summary ${summary.peakMb.toFixed(0)} MB); ` +
      `timeline shown from file:// in ${shownSec.toFixed(2)} s (goal 3 s: ${ok(shownSec, 3)})`,
  );
}

/** Seconds from navigation start until the app says a timeline row is drawn (data-bars). */
async function timelineShownSec(path) {
  const browser = await chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--no-first-run'],
  });
  try {
    const page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
    await page.goto(pathToFileURL(path).href, { waitUntil: 'commit' });
    // the page's own clock: stamped by an observer the moment the signal appears
    await page.waitForFunction(
      () => document.querySelector('[data-testid=timeline-row][data-bars]') !== null,
      null,
      { polling: 'raf', timeout: 60_000 },
    );
    return (await page.evaluate(() => performance.now())) / 1000;
  } finally {
    await browser.close();
  }
}
