import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * The e2e suite waits on the app's own signals (body[data-ready], a tab's data-state, a query's
 * answer), never on a fixed time: a sleep long enough on a quiet machine is too short on a busy
 * one (issue 49: a spec that expected "64 samples" within 5 s failed beside other work), and one
 * long enough for a busy machine wastes the time everywhere else. This finds the ways a spec
 * can sleep: Playwright's waitForTimeout, timers/promises, a sleep or delay helper, and a
 * promise that a timer resolves. A timer that rejects (a deadline) or paces a stream is not a
 * wait and is left alone.
 */
const E2E = join(__dirname, '../../e2e');

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory()
      ? filesUnder(join(dir, entry.name))
      : entry.name.endsWith('.ts')
        ? [join(dir, entry.name)]
        : [],
  );
}

/** The text with its comments blanked (a comment may say "never waitForTimeout"). */
function withoutComments(text: string): string {
  return text.replace(/\/\*[\s\S]*?\*\/|\/\/[^\n]*/g, (comment) => comment.replace(/[^\n]/g, ' '));
}

/** The index just past the parenthesis that closes the one opened at `open`. */
function closingParen(text: string, open: number): number {
  let depth = 0;
  for (let i = open; i < text.length; i++) {
    if (text[i] === '(') depth++;
    else if (text[i] === ')' && --depth === 0) return i + 1;
  }
  return text.length;
}

/** The first argument of the call whose parenthesis opens at `open`. */
function firstArgument(text: string, open: number): string {
  let depth = 0;
  for (let i = open + 1; i < text.length; i++) {
    const c = text[i];
    if ('([{'.includes(c)) depth++;
    else if (')]}'.includes(c)) {
      if (depth === 0) return text.slice(open + 1, i).trim();
      depth--;
    } else if (c === ',' && depth === 0) return text.slice(open + 1, i).trim();
  }
  return text.slice(open + 1).trim();
}

const FIXED_WAITS: [RegExp, string][] = [
  [/\bwaitForTimeout\s*\(/, 'waitForTimeout'],
  [/['"](node:)?timers\/promises['"]/, 'timers/promises (a promised sleep)'],
  [/\b(sleep|delay|wait)\s*\(\s*\d/, 'a sleep helper called with a time'],
];

/** Each fixed wait in a spec's text, as "line N: what". */
function fixedWaits(source: string): string[] {
  const text = withoutComments(source);
  const lineOf = (at: number) => text.slice(0, at).split('\n').length;
  const found: string[] = [];
  for (const [pattern, what] of FIXED_WAITS) {
    for (const match of text.matchAll(new RegExp(pattern, 'g'))) {
      found.push(`line ${lineOf(match.index)}: ${what}`);
    }
  }
  // new Promise((resolve, ...) => ... setTimeout(resolve | () => resolve(...), ms) ...)
  const promise =
    /new\s+Promise\s*(?:<[^>]*>)?\s*\(\s*(?:async\s*)?(?:function\s*\w*\s*)?\(?\s*(\w+)/g;
  for (const match of text.matchAll(promise)) {
    const resolve = match[1];
    const open = text.indexOf('(', match.index + match[0].indexOf('Promise'));
    const body = text.slice(open, closingParen(text, open));
    for (const timer of body.matchAll(/\bsetTimeout\s*\(/g)) {
      const callback = firstArgument(body, timer.index + timer[0].length - 1);
      if (callback === resolve || new RegExp(`\\b${resolve}\\s*\\(`).test(callback)) {
        found.push(`line ${lineOf(open + timer.index)}: a promise a timer resolves (a sleep)`);
      }
    }
  }
  return found;
}

describe('e2e specs wait on the app, never a fixed time', () => {
  it('no spec or support file sleeps', () => {
    const files = filesUnder(E2E);
    expect(files.length).toBeGreaterThan(20);
    const sleeps = files.flatMap((file) =>
      fixedWaits(readFileSync(file, 'utf8')).map((w) => `${relative(E2E, file)} ${w}`),
    );
    expect(sleeps).toEqual([]);
  });

  it('finds each way of sleeping', () => {
    const cases = [
      'await page.waitForTimeout(500);',
      "import { setTimeout as pause } from 'node:timers/promises';",
      "import { setTimeout } from 'timers/promises';",
      'await sleep(200);',
      'await new Promise((r) => setTimeout(r, 1000));',
      'await new Promise((resolve) => setTimeout(resolve, 1000));',
      'await new Promise<void>((done) => { setTimeout(() => done(), 50); });',
      'await new Promise(function (ok) { setTimeout(function () { ok(); }, 50); });',
    ];
    for (const snippet of cases) expect(fixedWaits(snippet), snippet).toHaveLength(1);
  });

  it('leaves deadlines, pacing, the page own timers and comments alone', () => {
    const allowed = [
      // a deadline: the timer rejects
      'new Promise((found, fail) => { const t = setTimeout(() => { fail(new Error("late")); }, 9); });',
      // pacing a stream
      'req.on("data", () => { req.pause(); setTimeout(() => req.resume(), 10); });',
      // work run in the page by a timer (a long task on purpose)
      'await page.evaluate(() => setTimeout(() => { while (performance.now() < until); }));',
      '// never page.waitForTimeout(500): wait for data-ready',
      'test.setTimeout(120_000);',
    ];
    for (const snippet of allowed) expect(fixedWaits(snippet), snippet).toEqual([]);
  });
});

/** Below this an expectation's timeout is a response time asserted, not a wait for a signal. */
const SHORTEST_SIGNAL_WAIT_MS = 10_000;

/**
 * Each response time a spec asserts, as "line N: what": the test's own clock read (a latency
 * measured beside the app), or an expectation given a timeout too short to be a wait for the
 * app (300 ms for a tab to show fails on a busy machine). A response time is a bench's figure,
 * beside a baseline of the same run (`npm run bench feedback`); a spec checks the order of the
 * app's signals.
 */
function timedAssertions(source: string): string[] {
  const text = withoutComments(source);
  const lineOf = (at: number) => text.slice(0, at).split('\n').length;
  const found: string[] = [];
  for (const match of text.matchAll(/\bDate\.now\s*\(/g))
    found.push(`line ${lineOf(match.index)}: the test's clock (Date.now)`);
  for (const match of text.matchAll(/\btimeout:\s*([\d_]+)/g)) {
    const ms = Number(match[1].replace(/_/g, ''));
    const statement = text.slice(text.lastIndexOf(';', match.index) + 1, match.index);
    if (ms < SHORTEST_SIGNAL_WAIT_MS && /\bexpect\b/.test(statement))
      found.push(`line ${lineOf(match.index)}: an expectation within ${ms} ms`);
  }
  return found;
}

describe('e2e specs check the order of signals, never a response time', () => {
  it('no spec or support file times the app', () => {
    const timed = filesUnder(E2E).flatMap((file) =>
      timedAssertions(readFileSync(file, 'utf8')).map((t) => `${relative(E2E, file)} ${t}`),
    );
    expect(timed).toEqual([]);
  });

  it('finds a clock read and a short expectation', () => {
    const cases = [
      "await expect(page.getByTestId('opening-tab')).toBeVisible({ timeout: 300 });",
      'const picked = Date.now();',
      "await expect(tab).toContainText('a.pt', {\n  timeout: 1500,\n});",
      'await expect(page.getByTestId(x)).toHaveCount(0, { timeout: 1_000 });',
    ];
    for (const snippet of cases) expect(timedAssertions(snippet), snippet).toHaveLength(1);
  });

  it("leaves waits for the app's signals and other timeouts alone", () => {
    const allowed = [
      "await expect(tab).toHaveAttribute('data-state', 'open', { timeout: APP_SIGNAL_MS });",
      'await expect(opening).toHaveCount(0, { timeout: 20_000 });',
      'await button.click({ timeout: 5_000 }).catch(() => {});',
      '// never expect(...).toBeVisible({ timeout: 300 }) or Date.now()',
    ];
    for (const snippet of allowed) expect(timedAssertions(snippet), snippet).toEqual([]);
  });
});
