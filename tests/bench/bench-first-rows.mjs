// Where the time to a dump's first rows goes, from starting serve mode to rows drawn in
// Chromium (issue 50: within 1 s at 100k samples, 1.5 s at 1 GB). Each turn starts serve mode
// on the file with TRACE_EXPLORER_MARKS=1 (src-main/ingest/start-marks.ts: the server's steps,
// as epoch ms on stderr) and opens the page when it says where it serves; the page notes its own
// steps (the bundle, the calls, the event that brings the preview, the rows drawn: the
// data-bars attribute the timeline sets when a row's bars are in). Every step is put on one
// clock (epoch ms, the spawn at 0). A baseline build (BENCH_BASELINE_CLI) takes every other
// turn: its figures are beside ours in the same run, the machine's load alike for both.
import { spawn } from 'node:child_process';
import { servingOn } from './serve-call.mjs';

const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--no-first-run',
];

/**
 * Until the page says it is ready (body[data-ready=true]), told by the page itself: Playwright's
 * waitForFunction checks at every animation frame, and that made Chromium draw frames the whole
 * time a file was read: 0.3-0.4 s of its CPU each 5 s, taken from the threads reading the file
 * on a machine of two cores, which no user's page spends.
 */
export function untilReady(page, timeout) {
  return page.evaluate(
    (ms) =>
      new Promise((resolve, reject) => {
        const ready = () => document.body.dataset.ready === 'true';
        if (ready()) return resolve();
        const timer = setTimeout(() => {
          observer.disconnect();
          reject(new Error(`the page was not ready within ${ms} ms`));
        }, ms);
        const observer = new MutationObserver(() => {
          if (!ready()) return;
          observer.disconnect();
          clearTimeout(timer);
          resolve();
        });
        observer.observe(document.body, { attributes: true, attributeFilter: ['data-ready'] });
      }),
    timeout,
  );
}

/**
 * The page's own notes (an init script): when the first row with its bars is in the page
 * (`window.__firstRowsAt`, epoch ms), when the event carrying the first preview came, and each
 * TraceApi call asked and answered. In-page, so Playwright's polling (tens to hundreds of ms on
 * a busy machine) is not counted. `rowsOnly`: the rows drawn alone.
 */
export function notePageSteps(rowsOnly = false) {
  window.__steps = [];
  const now = () => performance.timeOrigin + performance.now();
  const note = (step) => window.__steps.push([step, now()]);
  // each text the row count shows, and when (everyRowShownAt)
  window.__rowCounts = [];
  new MutationObserver(() => {
    if (!window.__firstRowsAt && document.querySelector('[data-testid=timeline-row][data-bars]')) {
      window.__firstRowsAt = now();
      note('rows drawn');
    }
    const count = document.querySelector('[data-testid=row-count]')?.textContent ?? '';
    if (count !== window.__rowCounts.at(-1)?.[0]) window.__rowCounts.push([count, now()]);
  }).observe(document, { childList: true, subtree: true, attributes: true, characterData: true });
  // the rows alone where the page's calls are timed too (nothing wraps them then)
  if (rowsOnly) return;
  const listen = EventSource.prototype.addEventListener;
  EventSource.prototype.addEventListener = function (type, listener, ...rest) {
    const noted = (event) => {
      if (!window.__previewAt && type === 'progress' && event.data.includes('"file"')) {
        window.__previewAt = now();
        note('page: preview event');
      }
      listener(event);
    };
    return listen.call(this, type, noted, ...rest);
  };
  const fetched = window.fetch;
  const seen = new Set();
  window.fetch = async (...args) => {
    let method = null;
    try {
      method = JSON.parse(args[1]?.body ?? 'null')?.method ?? null;
    } catch {
      method = null;
    }
    // each call's first time only: the first screen's calls, not the later pages
    const first = method !== null && !seen.has(method);
    if (method !== null) seen.add(method);
    if (first) note(`page: ${method} asked`);
    const answer = await fetched(...args);
    if (first) note(`page: ${method} answered`);
    return answer;
  };
}

/**
 * Epoch ms when the page first showed every one of the file's `rows` (its row count "N / N
 * rows": the whole file's rows in its order, from the whole-file preview on, or the open file),
 * from notePageSteps' notes; null when it has not yet.
 */
export async function everyRowShownAt(page, rows) {
  return page.evaluate((total) => {
    const all = (text) => {
      const counts = /^\s*([\d,]+)\s*\/\s*([\d,]+)/.exec(text);
      return counts !== null && counts.slice(1).every((n) => Number(n.replace(/,/g, '')) === total);
    };
    return window.__rowCounts.find(([text]) => all(text))?.[1] ?? null;
  }, rows);
}

/** The page's notes and its load steps (navigation, the bundle, DOMContentLoaded), epoch ms. */
async function pageSteps(page) {
  return page.evaluate(() => {
    const origin = performance.timeOrigin;
    const nav = performance.getEntriesByType('navigation')[0];
    const steps = [
      ['page: navigation', origin],
      ['page: HTML in', origin + nav.responseEnd],
      ['page: DOMContentLoaded (bundle run)', origin + nav.domContentLoadedEventEnd],
    ];
    for (const entry of performance.getEntriesByType('resource')) {
      if (entry.name.endsWith('.js')) steps.push(['page: bundle in', origin + entry.responseEnd]);
    }
    return [...steps, ...window.__steps];
  });
}

/**
 * The server's marks (TRACE_EXPLORER_MARKS=1: `MARK <step> <epoch ms>` lines on its stderr), each
 * given to `onMark(step, epochMs)` as it comes.
 */
export function readMarks(stderr, onMark) {
  let said = '';
  stderr.on('data', (chunk) => {
    said += chunk;
    const lines = said.split('\n');
    said = lines.pop();
    for (const line of lines) {
      const mark = /^MARK (\S+) ([\d.]+)$/.exec(line);
      if (mark) onMark(mark[1], Number(mark[2]));
    }
  });
}

/**
 * Epoch ms when the file's worker read its last byte: its session's start (a mark) and the
 * read's seconds from then (the summary's openTimings; builds without them give null).
 */
export function lastByteReadAt(marks, file) {
  const started = marks.get('session-start');
  const readSec = file?.openTimings?.readSec;
  return started === undefined || typeof readSec !== 'number' ? null : started + readSec * 1000;
}

/**
 * One turn: serve mode of `cli` on `path`, the page opened in `browser`; the steps (ms since
 * the spawn, in order) and the first rows' time (s).
 */
export async function firstRowsTurn(browser, cli, path, port) {
  const page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
  await page.addInitScript(notePageSteps);
  const steps = [];
  const t0 = Date.now();
  const server = spawn(
    process.execPath,
    [cli, 'serve', '--port', String(port), '--token', 'bench', path],
    {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, TRACE_EXPLORER_MARKS: '1' },
    },
  );
  readMarks(server.stderr, (step, at) => steps.push([`server: ${step}`, at]));
  try {
    await servingOn(server, port);
    server.stdout.resume();
    steps.push(['serving on (stdout)', Date.now()]);
    await page.goto(`http://127.0.0.1:${port}/?token=bench`);
    await page.waitForFunction(() => window.__firstRowsAt !== undefined, null, {
      timeout: 600_000,
      polling: 50,
    });
    steps.push(...(await pageSteps(page)));
    const firstRows = steps.find(([step]) => step === 'rows drawn')[1];
    const since = steps.map(([step, at]) => [step, at - t0]).sort((a, b) => a[1] - b[1]);
    return { firstRows: (firstRows - t0) / 1000, steps: since };
  } finally {
    server.kill();
    await page.close();
  }
}

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor((sorted.length - 1) / 2)];
};

/**
 * `turns` turns of ours and (when given) the baseline build's, alternating who goes first;
 * prints each build's first rows (median, best) and ours' steps (the median of each step's
 * time since the spawn), and returns the medians.
 */
export async function benchFirstRowsOf(label, cli, baselineCli, path, { turns, goal, steps = true }) {
  const { chromium } = await import('playwright-core');
  const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: CHROMIUM_ARGS });
  const builds = [['ours', cli], ...(baselineCli ? [['baseline', baselineCli]] : [])];
  const runs = new Map(builds.map(([name]) => [name, []]));
  try {
    for (let turn = 0; turn < turns; turn++) {
      const order = turn % 2 === 0 ? builds : [...builds].reverse();
      for (const [name, build] of order) {
        // port 4814: this bench's own (a helper's fixed port on the shared machine)
        runs.get(name).push(await firstRowsTurn(browser, build, path, 4814));
      }
    }
  } finally {
    await browser.close();
  }
  const seconds = (name) => runs.get(name).map((run) => run.firstRows);
  const ours = median(seconds('ours'));
  const best = Math.min(...seconds('ours'));
  let line = `${label}: first rows drawn in Chromium, median ${ours.toFixed(2)} s, best ${best.toFixed(2)} s of ${turns} (goal ${goal} s: ${ours <= goal ? 'ok' : 'MISSED'})`;
  let was = null;
  if (baselineCli) {
    was = median(seconds('baseline'));
    line += `; baseline build median ${was.toFixed(2)} s, best ${Math.min(...seconds('baseline')).toFixed(2)} s, turn about in this run (now ${(ours / was).toFixed(2)}x)`;
  }
  console.log(line);
  if (steps) printSteps(runs.get('ours'));
  return { ours, was };
}

/** Each step's median time since the spawn over the turns, in order, and the gap before it. */
function printSteps(turns) {
  const byStep = new Map();
  for (const { steps } of turns) {
    for (const [step, ms] of steps) {
      if (!byStep.has(step)) byStep.set(step, []);
      byStep.get(step).push(ms);
    }
  }
  const rows = [...byStep]
    .filter(([, times]) => times.length === turns.length)
    .map(([step, times]) => [step, median(times)])
    .sort((a, b) => a[1] - b[1]);
  let before = 0;
  console.log('  where the time went (median ms since serve mode was started; + the gap before):');
  for (const [step, ms] of rows) {
    console.log(`  ${ms.toFixed(0).padStart(6)} ms  (+${(ms - before).toFixed(0).padStart(4)})  ${step}`);
    before = ms;
  }
}
