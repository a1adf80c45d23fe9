import { test, expect } from '@playwright/test';
import { slimeDump } from '../unit/hostile/container-writers';
import { fileOpen } from './support/app-ready';

const URL = '/?token=e2e-test-token';

// Issue 19: every string from a file is text. Span names, attribute keys and values, service
// names carrying HTML and script must show literally and never run.
const PAYLOADS = {
  name: '<img src=x onerror="window.__pwned=1">root',
  child: '<script>window.__pwned=2</script>child',
  key: '<b onmouseover="window.__pwned=3">key</b>',
  value: '"><svg onload="window.__pwned=4"></svg>',
  service: '<iframe src="javascript:window.__pwned=5"></iframe>',
};

function line(spans: object[]): string {
  return JSON.stringify({
    resourceSpans: [
      {
        resource: {
          attributes: [{ key: 'service.name', value: { stringValue: PAYLOADS.service } }],
        },
        scopeSpans: [{ scope: { name: 'x' }, spans }],
      },
    ],
  });
}

const traceId = '0123456789abcdef0123456789abcdef';
const t0 = 1_780_000_000_000_000_000n;
const FILE = [
  line([
    {
      traceId,
      spanId: '0000000000000001',
      name: PAYLOADS.name,
      kind: 1,
      startTimeUnixNano: String(t0),
      endTimeUnixNano: String(t0 + 2_000_000_000n),
      attributes: [{ key: PAYLOADS.key, value: { stringValue: PAYLOADS.value } }],
      status: {},
    },
    {
      traceId,
      spanId: '0000000000000002',
      parentSpanId: '0000000000000001',
      name: PAYLOADS.child,
      kind: 1,
      startTimeUnixNano: String(t0 + 500_000_000n),
      endTimeUnixNano: String(t0 + 1_500_000_000n),
      status: {},
    },
  ]),
].join('\n');

test('HTML and script in span names, attributes and services show as text and never run', async ({
  page,
}) => {
  await page.goto(URL);
  await page.getByTestId('file-input').setInputFiles({
    name: 'hostile.jsonl',
    mimeType: 'application/json',
    buffer: Buffer.from(`${FILE}\n`),
  });
  await fileOpen(page, 'hostile.jsonl');
  await expect(page.getByTestId('timeline-row').first()).toHaveAttribute('data-bars', /\d+/);
  const canvas = page.getByTestId('timeline-canvas');
  const box = (await canvas.boundingBox())!;
  await page.mouse.click(box.x + box.width * 0.06, box.y + 10);
  const details = page.getByTestId('span-details');
  await expect(details).toContainText(PAYLOADS.name);
  await expect(details).toContainText(PAYLOADS.value);
  await expect(details).toContainText('key');
  await page.mouse.move(box.x + 5, box.y + 5);
  // nothing the file said became markup, and nothing ran
  expect(
    await page
      .locator('img[src=x], script:text("__pwned"), svg[onload], iframe, b[onmouseover]')
      .count(),
  ).toBe(0);
  expect(
    await page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned),
  ).toBeUndefined();
});

test('HTML and script in a sample’s prompt, response and label show as text and never run', async ({
  page,
}) => {
  const prompt = '<img src=x onerror="window.__pwned=6">hello';
  const response = '<script>window.__pwned=7</script>answer';
  const dump = slimeDump((w) =>
    w.py([
      {
        index: 0,
        prompt: [{ role: 'user', content: prompt }],
        response,
        label: '<svg onload="window.__pwned=8"></svg>',
        status: 'completed',
        trace: {
          events: [
            { type: 'span_start', name: PAYLOADS.name, span_id: 'a', ts: 1 },
            { type: 'span_end', name: PAYLOADS.name, span_id: 'a', ts: 2 },
          ],
        },
      },
    ]),
  );
  await page.goto(URL);
  await page.getByTestId('file-input').setInputFiles({
    name: 'hostile.pt',
    mimeType: 'application/octet-stream',
    buffer: Buffer.from(dump),
  });
  await fileOpen(page, 'hostile.pt');
  await page.locator('[data-testid=timeline-row][data-row-id="0"]').click();
  await expect(
    page.getByTestId('sample-prompt').getByTestId('chat-message').locator('.chat-content'),
  ).toHaveText(prompt);
  await expect(page.getByText(response)).toBeVisible();
  expect(await page.locator('img[src=x], svg[onload]').count()).toBe(0);
  expect(
    await page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned),
  ).toBeUndefined();
});
