import { test, expect, type Page } from '@playwright/test';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { expectRunReport, openReport } from './support/open-report';

// Issue 47: a shared report opens from file:// with no network and no server, and is the app
// itself (its answer, timeline, details) over the data inside it.
const ROOT = resolve(__dirname, '../..');
const CLI = join(ROOT, 'out/main/cli.js');
const SLIME = join(ROOT, 'tests/fixtures/slime');
const A = join(SLIME, 'rollout_7.pt');
const B = join(SLIME, 'rollout_8.pt');
const dir = mkdtempSync(join(tmpdir(), 'report-e2e-'));

const cli = (...args: string[]) => execFileSync('node', [CLI, ...args], { encoding: 'utf8' });

interface CompareJson {
  answerText: string[];
  answer: { text: string }[][];
  perf: { key: string; shown: { a: string; b: string; delta: string } }[];
}

test('a compare report offline: the answer and figures as compare --json says them, a timeline to zoom and hover', async ({
  page,
}) => {
  const out = join(dir, 'pair.html');
  cli('report', A, B, '-o', out);
  const expected = JSON.parse(cli('compare', A, B, '--json')) as CompareJson;
  const requests = await openReport(page, out);

  await expect(page.getByTestId('report-content')).toHaveText(/left out/);
  await expect(page.getByTestId('report-file')).toHaveCount(2);
  const answer = page.getByTestId('compare-answer');
  const sentences = expected.answer.map((sentence) => sentence.map((p) => p.text).join(''));
  expect(sentences.length).toBeGreaterThan(0);
  await expect(answer.locator('p:not(.compare-windows)')).toHaveText(sentences);
  // every figure of the table as compare --json shows it
  const table = page.getByTestId('perf-diff-table');
  await expect(table).toBeVisible();
  for (const figure of expected.perf.slice(0, 12)) {
    const row = page.locator(`tr[data-metric="${figure.key}"]`).first();
    const cells = row.locator('td.num');
    await expect(cells.nth(0)).toHaveText(figure.shown.a);
    await expect(cells.nth(1)).toHaveText(figure.shown.b);
    await expect(cells.nth(2)).toHaveText(figure.shown.delta);
  }

  // A's own tab: the app's timeline, zoomed with its key, a span hovered for its details
  await page.getByTestId('exit-compare').first().click();
  await expect(page.getByTestId('timeline-row').first()).toHaveAttribute('data-bars', /\d+/);
  const axis = page.getByTestId('time-axis');
  const span = async () =>
    Number(await axis.getAttribute('data-end')) - Number(await axis.getAttribute('data-start'));
  const before = await span();
  const canvas = page.getByTestId('timeline-canvas');
  const box = (await canvas.boundingBox())!;
  await page.mouse.move(box.x + box.width * 0.2, box.y + 12);
  await page.keyboard.press('w');
  await page.keyboard.press('w');
  await expect.poll(span).toBeLessThan(before * 0.7);
  await hoverFirstSpan(page);
  const name = await page.getByTestId('tooltip').locator('.tooltip-name').innerText();
  expect(name.length).toBeGreaterThan(0);
  // clicked: the details panel reads the span's details from the report's data
  await page.mouse.down();
  await page.mouse.up();
  await expect(page.getByTestId('span-details')).toContainText(name);

  expect(requests).toEqual([]);
});

test("a run folder's report opens on the run tab: its lanes of samples, trainer and SGLang", async ({
  page,
}) => {
  const out = join(dir, 'run.html');
  cli('report', join(ROOT, 'tests/fixtures/run'), '-o', out);
  const requests = await openReport(page, out);
  await expectRunReport(page);
  expect(requests).toEqual([]);
});

/** Moves across the first rows until the pointer is over a span (the app's tooltip shows). */
async function hoverFirstSpan(page: Page) {
  const box = (await page.getByTestId('timeline-canvas').boundingBox())!;
  for (let y = 8; y < Math.min(box.height, 200); y += 12) {
    for (let x = 0.02; x < 1; x += 0.03) {
      await page.mouse.move(box.x + box.width * x, box.y + y);
      const tooltip = page.getByTestId('tooltip');
      // a span (start → end), not an instant event
      if ((await tooltip.count()) > 0 && (await tooltip.innerText()).includes('→')) return;
    }
  }
  throw new Error('no span under the pointer in the first rows');
}

// the payloads of tests/e2e/hostile-text.spec.ts (issue 19), in a report
const PAYLOADS = {
  name: '<img src=x onerror="window.__pwned=1">root',
  child: '<script>window.__pwned=2</script>child',
  value: '"><svg onload="window.__pwned=4"></svg>',
};

test('span names and attributes carrying HTML and script show as text in a report', async ({
  page,
}) => {
  const traceId = '0123456789abcdef0123456789abcdef';
  const t0 = 1_780_000_000_000_000_000n;
  const span = (spanId: string, name: string, from: bigint, to: bigint, extra: object) => ({
    traceId,
    spanId,
    name,
    kind: 1,
    startTimeUnixNano: String(from),
    endTimeUnixNano: String(to),
    status: {},
    ...extra,
  });
  const line = JSON.stringify({
    resourceSpans: [
      {
        resource: { attributes: [{ key: 'service.name', value: { stringValue: 'svc' } }] },
        scopeSpans: [
          {
            scope: { name: 'x' },
            spans: [
              span('0000000000000001', PAYLOADS.name, t0, t0 + 2_000_000_000n, {
                attributes: [{ key: 'k', value: { stringValue: PAYLOADS.value } }],
              }),
              span('0000000000000002', PAYLOADS.child, t0 + 500_000_000n, t0 + 1_500_000_000n, {
                parentSpanId: '0000000000000001',
              }),
            ],
          },
        ],
      },
    ],
  });
  const input = join(dir, 'hostile.jsonl');
  writeFileSync(input, `${line}\n`);
  const out = join(dir, 'hostile.html');
  cli('report', input, '-o', out);
  const requests = await openReport(page, out);
  await expect(page.getByTestId('timeline-row').first()).toHaveAttribute('data-bars', /\d+/);
  const box = (await page.getByTestId('timeline-canvas').boundingBox())!;
  await page.mouse.click(box.x + box.width * 0.06, box.y + 10);
  const details = page.getByTestId('span-details');
  await expect(details).toContainText(PAYLOADS.name);
  await expect(details).toContainText(PAYLOADS.value);
  await hoverFirstSpan(page);
  await expect(page.getByTestId('tooltip').locator('.tooltip-name')).toHaveText(
    /window\.__pwned=\d/,
  );
  expect(await page.locator('img[src=x], script:text("__pwned"), svg[onload]').count()).toBe(0);
  expect(
    await page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned),
  ).toBeUndefined();
  expect(requests).toEqual([]);
});

// Issue 47's follow-up: a report offers no control that cannot work there (a control the
// snapshot cannot answer would say report/not-included); the search box and the span and
// reward filters work from the rows it carries, finding what the app finds.
const URL = '/?token=e2e-test-token';

/** How many calls the report's page refused so far (report-main.tsx counts them). */
const refusals = (page: Page) => page.locator('body').getAttribute('data-report-refusals');

/**
 * Clicks every visible button of `scope` but its view tabs once, as found now (one that went
 * away or was hidden by an earlier click is passed over), and says which were clicked.
 */
async function clickEveryButton(page: Page, scope: string): Promise<string[]> {
  const clicked: string[] = [];
  const buttons = page.locator(`${scope} button:visible:not([role="tab"])`);
  for (const button of await buttons.elementHandles()) {
    if (!(await button.isVisible()) || !(await button.isEnabled())) continue;
    clicked.push((await button.innerText()).trim());
    await button.click({ timeout: 5_000 }).catch(() => {});
    // a menu it opened is closed again by Escape: the next click is not under it
    await page.keyboard.press('Escape');
  }
  return clicked;
}

/** The rows shown once the toolbar's filter is applied (the row count the app sets). */
async function shownRows(page: Page): Promise<string> {
  const count = page.getByTestId('row-count');
  await expect(count).toHaveAttribute('data-shown', /\d+/);
  return (await count.getAttribute('data-shown'))!;
}

/**
 * Searches, picks a span name, searches again and sets a reward range, one change a step, each
 * step showing other rows than the one before: the rows shown after each.
 */
async function filterSteps(page: Page): Promise<string[]> {
  const seen = [await shownRows(page)];
  const step = async (change: () => Promise<void>) => {
    await change();
    // the step's answer is in once the count moved from the last one
    await expect(page.getByTestId('row-count')).not.toHaveAttribute('data-shown', seen.at(-1)!);
    seen.push(await shownRows(page));
  };
  const search = (text: string) => async () => {
    await page.getByTestId('search-box').fill(text);
    await page.getByTestId('search-box').press('Enter');
  };
  await step(search('truncated'));
  await step(search('#1'));
  await step(() =>
    page
      .getByTestId('span-filter')
      .selectOption('attempt_start')
      .then(() => {}),
  );
  await step(search(''));
  await step(() => page.getByTestId('reward-min').fill('0.5'));
  return seen;
}

test('a report offers no control it cannot answer; its search and filters find what the app finds', async ({
  page,
}) => {
  // the app over the same file: what each filter step shows
  await page.goto(URL);
  await page.getByTestId('file-input').setInputFiles(resolve(SLIME, 'rollout_7.pt'));
  await expect(page.getByTestId('timeline-row').first()).toHaveAttribute('data-bars', /\d+/);
  const expected = await filterSteps(page);

  const out = join(dir, 'one.html');
  cli('report', resolve(SLIME, 'rollout_7.pt'), '-o', out);
  await openReport(page, out);
  await expect(page.getByTestId('timeline-row').first()).toHaveAttribute('data-bars', /\d+/);
  // no SQL engine, no other files: no Query tab, Open…, Export, Share, Compare or tab close
  await expect(page.getByTestId('view-timeline')).toBeVisible();
  await expect(page.getByTestId('view-query')).toHaveCount(0);
  for (const id of ['open-button', 'export-button', 'share-button', 'compare-button'])
    await expect(page.getByTestId(id)).toBeHidden();
  await expect(page.locator('.tab-close')).toBeHidden();
  expect(await filterSteps(page)).toEqual(expected);
  // the steps showed rows of four different counts: none is only all rows or an error's none
  expect(new Set(expected).size).toBeGreaterThanOrEqual(4);

  // the details promise no content the report left out, and offer no token values
  await page.getByTestId('clear-filters').click();
  await expect(page.getByTestId('row-count')).toHaveAttribute('data-shown', '24');
  await expect(page.getByTestId('details-empty')).toContainText('were left out of this report');
  await expect(page.getByTestId('details-empty')).not.toContainText('prompt, response');
  await page.locator('.row-label').nth(3).click();
  await expect(page.getByTestId('sample-details')).toBeVisible();
  await expect(page.getByTestId('no-values-tokens')).toHaveText('values not in this report');
  await expect(page.locator('[data-testid^="load-"]')).toHaveCount(0);

  // every button of each view, once: none of them is refused
  const clicked: string[] = [];
  for (const view of ['timeline', 'perf', 'groups']) {
    await page.getByTestId(`view-${view}`).click();
    await expect(page.getByTestId(`view-${view}`)).toHaveAttribute('aria-selected', 'true');
    if (view === 'perf') await expect(page.getByTestId('histogram').first()).toBeVisible();
    if (view === 'groups') await expect(page.locator('.groups-table')).toBeVisible();
    clicked.push(...(await clickEveryButton(page, '[data-testid="timeline-area"]')));
  }
  expect(clicked.length).toBeGreaterThan(30);
  await page.getByTestId('view-timeline').click();
  await expect(page.getByTestId('timeline-row').first()).toHaveAttribute('data-bars', /\d+/);
  expect(await refusals(page)).toBeNull();
  await expect(page.locator('body')).not.toContainText('not part of a shared report');
});

test("a compare report offers no Query tab; each of its tabs answers from the report's data", async ({
  page,
}) => {
  const out = join(dir, 'pair-tabs.html');
  cli('report', A, B, '-o', out);
  await openReport(page, out);
  const tabs = page.locator('.compare-tabs [role="tab"]');
  await expect(tabs.first()).toBeVisible();
  const names = await tabs.allInnerTexts();
  expect(names).not.toContain('Query');
  expect(names.length).toBeGreaterThan(5);
  for (const name of names) {
    const tab = tabs.filter({ hasText: name });
    await tab.click();
    await expect(tab).toHaveAttribute('aria-selected', 'true');
  }
  // the other file to compare with is offered: its compare is in the report too
  await expect(page.getByTestId('compare-button')).toBeVisible();
  expect(await refusals(page)).toBeNull();
  await expect(page.locator('body')).not.toContainText('not part of a shared report');
});
