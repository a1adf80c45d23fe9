import { test, expect, type Download, type Page } from '@playwright/test';
import { inflateRawSync } from 'node:zlib';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { sampleContentStrings } from '../support/sample-content-strings';

// Issue 47: serve mode's Share ▾ hands the report to the browser's download, a file that opens
// as the report of what was shown; prompts and responses only with the menu's checkbox.
const SLIME = resolve(__dirname, '../fixtures/slime');
const URL = '/?token=e2e-test-token';
const FILE = 'rollout_7.pt';

/** The report's text: its HTML and every data block inflated (as the page reads them). */
function reportText(html: string): string {
  const blocks = [...html.matchAll(/<script type="application\/octet-stream"[^>]*>([^<]*)</g)];
  expect(blocks.length).toBeGreaterThan(1);
  const inflated = blocks.map((b) => inflateRawSync(Buffer.from(b[1], 'base64')).toString());
  return [html, ...inflated].join('\n');
}

async function share(page: Page, withContent: boolean): Promise<Download> {
  await page.getByTestId('share-button').click();
  const box = page.getByTestId('share-with-content');
  if (withContent) await box.check();
  await expect(box).toBeChecked({ checked: withContent });
  const [download] = await Promise.all([
    // made in the file's worker, then the page: seconds on a busy machine
    page.waitForEvent('download', { timeout: 120_000 }),
    page.getByTestId('share-report').click(),
  ]);
  expect(await download.failure()).toBeNull();
  return download;
}

test('Share ▾ downloads the shown file as a report: its header names it, no prompt without the checkbox', async ({
  page,
}) => {
  const prompts = sampleContentStrings(resolve(SLIME, FILE));
  expect(prompts.length).toBeGreaterThan(10);
  await page.goto(URL);
  await page.getByTestId('file-input').setInputFiles(resolve(SLIME, FILE));
  await expect(page.getByTestId('timeline-row').first()).toHaveAttribute('data-bars', /\d+/);

  const plain = await share(page, false);
  expect(plain.suggestedFilename()).toBe(`${FILE}.report.html`);
  const html = readFileSync((await plain.path())!, 'utf8');
  expect(html).toContain(`<title>${FILE}: Trace Explorer report</title>`);
  const text = reportText(html);
  expect(prompts.filter((p) => text.includes(JSON.stringify(p).slice(1, -1)))).toEqual([]);

  // with the checkbox: the same prompts are there (the check above can fail)
  const full = await share(page, true);
  const fullText = reportText(readFileSync((await full.path())!, 'utf8'));
  expect(prompts.filter((p) => !fullText.includes(JSON.stringify(p).slice(1, -1)))).toEqual([]);

  // the downloaded file opens offline as the report of that file (saved under its own name:
  // Playwright keeps a download under a name without .html, which a browser shows as text)
  const saved = join(mkdtempSync(join(tmpdir(), 'share-download-')), plain.suggestedFilename());
  await plain.saveAs(saved);
  const report = await page.context().newPage();
  await report.goto(pathToFileURL(saved).href);
  await expect(report.getByTestId('report-file')).toHaveText(
    new RegExp(`^${FILE.replace('.', '\\.')} · slime rollout dump`),
  );
  await expect(report.getByTestId('report-content')).toHaveText(/left out/);
  await expect(report.getByTestId('timeline-row').first()).toHaveAttribute('data-bars', /\d+/);
});
