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
  console.log(
    `\n== shared report of a ${rows}-sample dump (${(statSync(path).size / 1e6).toFixed(1)} MB)`,
  );
  const summary = measure(process.execPath, [cli, 'summary', '--json', path]);
  const report = measure(process.execPath, [cli, 'report', path, '-o', out]);
  const megabytes = statSync(out).size / 1e6;
  const ratio = report.seconds / summary.seconds;
  const { shownSec, phases } = await timelineShown(out);
  console.log(
    `report ${megabytes.toFixed(1)} MB (goal 20 MB: ${ok(megabytes, 20)}); made in ${report.seconds.toFixed(2)} s, ` +
      `summary ${summary.seconds.toFixed(2)} s: ${ratio.toFixed(2)}x summary (goal 2x: ${ok(ratio, 2)}); ` +
      `peak ${report.peakMb.toFixed(0)} MB (summary ${summary.peakMb.toFixed(0)} MB); ` +
      `timeline shown from file:// in ${shownSec.toFixed(2)} s (goal 3 s: ${ok(shownSec, 3)}); ` +
      `CPU ${report.cpuSec.toFixed(2)} s against summary's ${summary.cpuSec.toFixed(2)} s: ` +
      `${(report.cpuSec / summary.cpuSec).toFixed(2)}x`,
  );
  console.log(
    `  page phases: script starts ${phases.scriptSec.toFixed(2)} s, snapshot's base64 ` +
      `${phases.base64Sec.toFixed(2)} s, inflated in ` +
      `${phases.inflateSec.toFixed(2)} s, decoded in ${phases.decodeSec.toFixed(2)} s, ` +
      `then the app's first draw of the timeline ${phases.drawSec.toFixed(2)} s`,
  );
}

/**
 * Seconds from navigation start until the app says a timeline row is drawn (data-bars), and
 * its phases: the page's script starts (the HTML read), the snapshot's block inflated and
 * decoded (the page's own measures, read-snapshot.ts), then the app until the first draw.
 */
async function timelineShown(path) {
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
    return await page.evaluate(() => {
      const now = performance.now();
      const [base64] = performance.getEntriesByName('report-data:base64');
      const [inflate] = performance.getEntriesByName('report-data:inflate');
      const [decode] = performance.getEntriesByName('report-data:decode');
      return {
        shownSec: now / 1000,
        phases: {
          scriptSec: base64.startTime / 1000,
          base64Sec: base64.duration / 1000,
          inflateSec: inflate.duration / 1000,
          decodeSec: decode.duration / 1000,
          drawSec: (now - decode.startTime - decode.duration) / 1000,
        },
      };
    });
  } finally {
    await browser.close();
  }
}
