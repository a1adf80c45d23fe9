// Opening a big dump in the app's own path (serve mode, the file's ingest worker): how soon the
// first screen of rows can be asked for (rows stream while the file is read), when all rows are
// there, the peak memory of the process, and how long each interaction takes at 100k rows once
// open (sort, filter, text search first and again, perf view), as the renderer asks them over
// HTTP. Baseline in the same run: `summary --json` of the same file (read, then everything).
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { call, servingOn } from './serve-call.mjs';
import { chromiumCpuSeconds, watchThreads } from './process-cpu.mjs';
import { everyRowShownAt, lastByteReadAt, notePageSteps, readMarks, untilReady } from './bench-first-rows.mjs';

const FIRST_SCREEN = 60;


function peakKb(pid) {
  try {
    return Number(/VmHWM:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0);
  } catch {
    return 0;
  }
}

/**
 * Serve mode on `path`: first rows, all rows, peak memory, then the interactions. `perfOnly`:
 * just the perf view (a baseline build that has no newer calls); `env`: serve mode's.
 */
export async function benchOpenStream(cli, path, { perfOnly = false, env = process.env } = {}) {
  const port = 5400 + Math.floor(Math.random() * 400);
  // its marks (start-marks.ts): when the worker read the last byte
  const child = spawn(process.execPath, [cli, 'serve', '--port', String(port), '--token', 'bench', path], {
    stdio: ['ignore', 'ignore', 'pipe'],
    env: { ...env, TRACE_EXPLORER_MARKS: '1' },
  });
  const marks = new Map();
  readMarks(child.stderr, (step, at) => marks.set(step, at));
  if (process.env.BENCH_STDERR) child.stderr.pipe(process.stderr);
  const started = performance.timeOrigin + performance.now();
  const sec = () => (performance.timeOrigin + performance.now() - started) / 1000;
  let firstRows = null;
  let firstRowCount = 0;
  let allRows = null;
  // each listing's time and row count: every row is listed from the whole-file preview on
  const listings = [];
  let peak = 0;
  let file = null;
  try {
    for (;;) {
      peak = Math.max(peak, peakKb(child.pid));
      const listed = await call(port, 'listFiles', []).catch(() => null);
      file = listed?.json?.result?.[0] ?? null;
      if (file) listings.push([sec(), file.rows]);
      if (file && firstRows === null) {
        // what the renderer does for its first screen: the order, then the rows in view
        const order = await call(port, 'queryRows', [file.fileId, { sort: 'row_id' }]);
        const ids = order.json.result.rowIds;
        const count = ids.$length ?? ids.length ?? 0;
        const page = await call(port, 'getRows', [file.fileId, Array.from({ length: Math.min(FIRST_SCREEN, file.rows) }, (_, i) => i)]);
        if (page.json.result?.length > 0) {
          firstRows = sec();
          firstRowCount = file.rows;
          void count;
        }
      }
      // another bench's server on the same random port would answer for ours
      if (file && child.exitCode !== null) throw new Error(`serve mode exited: port ${port} taken?`);
      if (file && !file.streaming) {
        allRows = sec();
        break;
      }
      if (child.exitCode !== null) throw new Error('serve mode exited before the file opened');
      await new Promise((r) => setTimeout(r, 50));
    }
    peak = Math.max(peak, peakKb(child.pid));
    // seconds from the last byte read until the listing first held every row (a whole-file
    // preview, or the open file)
    const readAt = lastByteReadAt(marks, file);
    const everyRow = listings.find(([, rows]) => rows === file.rows)[0];
    const afterRead = readAt === null ? null : (started + everyRow * 1000 - readAt) / 1000;
    const timed = async (label, method, args) => {
      const t = performance.now();
      const answer = await call(port, method, args);
      const ms = performance.now() - t;
      if (answer.json?.error) throw new Error(`${label}: ${String(answer.json.error).slice(0, 200)}`);
      return { label, ms, bytes: answer.bytes, json: answer.json };
    };
    // a call an older build (BENCH_BASELINE_CLI) may lack or take other arguments for: `older`
    // are its arguments there (null: it has no such call, the line is left out)
    const timedEither = async (label, method, args, older) => {
      const first = await call(port, method, args);
      if (!first.json?.error) return timed(label, method, args);
      if (older === null) return null;
      return timed(`${label} (older call)`, method, older);
    };
    const id = file.fileId;
    if (perfOnly) {
      const perf = await timed('perf view', 'getPerf', [id]);
      return { firstRows, firstRowCount, allRows, afterRead, timings: file.openTimings ?? null, peakMb: peak / 1024, rows: file.rows, interactions: [perf] };
    }
    const groupsPage = (sort) => ({ sort, filter: 'all', offset: 0, limit: 100 });
    const interactions = [
      // once per store version (the renderer keeps it): every row's lanes, start and end
      await timedEither('row facts (once per file version)', 'getRowFacts', [id], null),
      await timed('sort by duration', 'queryRows', [id, { sort: 'duration', descending: true }]),
      await timed('sort by duration again', 'queryRows', [id, { sort: 'duration', descending: false }]),
      await timed('sort by reward', 'queryRows', [id, { sort: 'reward', descending: true }]),
      await timed('filter status', 'queryRows', [id, { sort: 'row_id', filter: { statuses: ['completed'] } }]),
      await timed('text search (first)', 'queryRows', [id, { sort: 'row_id', filter: { text: 'python' } }]),
      await timed('text search (again)', 'queryRows', [id, { sort: 'start', filter: { text: 'gsm8k' } }]),
      await timed('perf view', 'getPerf', [id]),
    ].filter(Boolean);
    // a bin click: the fullest bin of the first series (its rows come from the worker), then
    // the groups view's own call (its first page, as the view asks it)
    const series = interactions.at(-1).json.result.series[0];
    if (series) {
      const fullest = series.bins.reduce((best, bin, i) => (bin.count > series.bins[best].count ? i : best), 0);
      const rows = await timed(`perf bin rows (${series.key}, ${series.bins[fullest].samples} samples)`, 'getPerfBinRows', [id, series.key, fullest]);
      interactions.push(rows);
    }
    interactions.push(await timedEither('groups', 'getPerfGroups', [id, groupsPage('group')], [id]));
    interactions.push(await timedEither('groups by wall time', 'getPerfGroups', [id, groupsPage('wall')], [id]));
    return { firstRows, firstRowCount, allRows, afterRead, timings: file.openTimings ?? null, peakMb: peak / 1024, rows: file.rows, interactions };
  } finally {
    child.kill();
  }
}

/**
 * The same file in Chromium (serve mode, named on the command line as a user would): seconds
 * from starting the server until the first timeline rows are drawn, and until the whole file is
 * there; `screenshot` (a path) keeps how the page looks while rows still arrive.
 */
export async function browserFirstRows(cli, path, screenshot, { perfScreenshot = null, rows = null } = {}) {
  const { chromium } = await import('playwright-core');
  const port = 5800 + Math.floor(Math.random() * 150);
  // the browser is up and its page made before the clock starts: launching Chromium is not the
  // app's time (the desktop app's window is there before a file is opened)
  const browser = await chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run'],
  });
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  // the page notes when its first rows are drawn (bench-first-rows.mjs): Playwright's polling
  // added tens to hundreds of ms to the figure on a busy machine
  await page.addInitScript(notePageSteps, true);
  const started = Date.now();
  const server = spawn(process.execPath, [cli, 'serve', '--port', String(port), '--token', 'bench', path], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, TRACE_EXPLORER_MARKS: '1' },
  });
  const marks = new Map();
  readMarks(server.stderr, (step, at) => marks.set(step, at));
  const threads = watchThreads(server.pid);
  const chromiumAtStart = chromiumCpuSeconds();
  let cpu = null;
  try {
    // the page is opened when serve mode says where it serves, as a user opens the URL it
    // prints (navigations tried before then failed in Chromium, and each failure took its
    // time: about 0.6 s of the first-rows figure was those, not the app's)
    await servingOn(server, port);
    server.stdout.resume();
    await page.goto(`http://127.0.0.1:${port}/?token=bench`);
    await page.waitForSelector('[data-testid=timeline-row][data-bars]', { timeout: 600_000 });
    // another bench's server on the same random port would have answered for ours
    if (server.exitCode !== null) throw new Error(`serve mode exited: port ${port} taken?`);
    const firstRows = ((await page.evaluate(() => window.__firstRowsAt)) - started) / 1000;
    const shownWhileReading = await page.locator('[data-testid=row-count]').first().textContent();
    if (screenshot) await page.screenshot({ path: screenshot });
    await untilReady(page, 900_000);
    const chromium = chromiumCpuSeconds();
    cpu = { threads: threads.stop(), chromium: chromium === null ? null : chromium - chromiumAtStart };
    // ms from act() until done(before) holds, checked every frame (before: what state() was)
    await page.evaluate(() => {
      window.timeUntil = (act, done, state) =>
        new Promise((resolve) => {
          const before = state();
          const t0 = performance.now();
          act();
          const check = () => (done(before) ? resolve(performance.now() - t0) : requestAnimationFrame(check));
          requestAnimationFrame(check);
        });
    });
    // every row: when the page's count first said all of them (noted in the page), and how
    // long after the worker read the last byte
    const file = (await call(port, 'listFiles', [])).json.result[0];
    let allRowsAt = await everyRowShownAt(page, file.rows);
    while (allRowsAt === null) {
      // the count is noted in the page as it changes: this wait does not enter the figure
      await new Promise((r) => setTimeout(r, 20));
      allRowsAt = await everyRowShownAt(page, file.rows);
    }
    const allRows = (allRowsAt - started) / 1000;
    const readAt = lastByteReadAt(marks, file);
    const afterRead = readAt === null ? null : (allRowsAt - readAt) / 1000;
    // the timeline settled on the whole file (its order of every row in, its rows drawn), as a
    // user who reads the first screen before sorting would find it
    if (rows) {
      await page.waitForFunction(
        (n) => document.body.dataset.shownRows === String(n) && document.body.dataset.idle === 'true',
        rows,
        { timeout: 120_000 },
      );
    }
    // a sort picked in the toolbar: from the change until the first row in view is another
    // sample and its bars are in (the page idle), timed inside the page a frame at a time
    const sortShownMs = await page.evaluate(() => timeUntil(
      () => {
        const select = document.querySelector('[data-testid=sort-select]');
        Object.getOwnPropertyDescriptor(HTMLSelectElement.prototype, 'value').set.call(select, 'duration');
        select.dispatchEvent(new Event('change', { bubbles: true }));
      },
      (before) => document.querySelector('[data-testid=timeline-row]')?.textContent !== before && document.body.dataset.idle === 'true',
      () => document.querySelector('[data-testid=timeline-row]')?.textContent,
    ));
    // the perf view: from the click on its tab until its first screen (the running chart and
    // slime's perf table) is in the page and painted, and until its histograms (all below that
    // screen, drawn a frame later) are; timed inside the page (Playwright's own click and
    // polling add tens of milliseconds)
    await page.evaluate(() => {
      let clickedAt = null;
      document.addEventListener('click', () => (clickedAt ??= performance.now()), { capture: true });
      // ms from the click until `selector` is in the page, the frame after the one that has it:
      // it is painted
      const shown = (selector) =>
        new Promise((resolve) => {
          const observer = new MutationObserver(() => {
            if (clickedAt === null || !document.querySelector(selector)) return;
            observer.disconnect();
            requestAnimationFrame(() => setTimeout(() => resolve(performance.now() - clickedAt), 0));
          });
          observer.observe(document.body, { childList: true, subtree: true });
        });
      window.perfShown = Promise.all([
        shown('[data-testid=running-chart] path'),
        shown('[data-testid=perf-table] td'),
      ]).then((times) => Math.max(...times));
      window.perfHistogramsShown = shown('[data-testid=histogram] [data-testid=histogram-bin]');
    });
    await page.getByTestId('view-perf').click();
    const perfViewMs = await page.evaluate(() => window.perfShown);
    const perfHistogramsMs = await page.evaluate(() => window.perfHistogramsShown);
    if (perfScreenshot) await page.screenshot({ path: perfScreenshot, fullPage: true });
    // the groups view: from the click on its tab until its first lines are in the page
    const groupsShownMs = await page.evaluate(() => timeUntil(
      () => document.querySelector('[data-testid=view-groups]').click(),
      () => document.querySelector('[data-testid=group-line]') !== null,
      () => null,
    ));
    return { firstRows, allRows, afterRead, cpu, perfViewMs, perfHistogramsMs, sortShownMs, groupsShownMs, shownWhileReading: shownWhileReading?.replace(/\s+/g, ' ').trim() };
  } finally {
    threads.stop();
    await browser.close();
    server.kill();
  }
}
