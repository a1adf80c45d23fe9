import { test, expect } from '@playwright/test';
import { resolve } from 'node:path';
import { fileOpen } from './support/app-ready';

const fixtures = resolve(__dirname, '../fixtures');
const URL = '/?token=e2e-test-token';

test('the start page lists every format by name, folders, and opens the demo in one click', async ({
  page,
  request,
}) => {
  await page.goto(URL);
  const start = page.getByTestId('empty-state');
  await expect(start).toHaveAttribute('data-ready', 'true');
  await expect(start).toContainText('Drop files or folders here');
  await expect(page.getByTestId('open-button')).toBeVisible();
  // the formats are the registry's, as main answers them
  const answer = (await (
    await request.post('/api/call', {
      data: { method: 'startPage', args: [] },
      headers: { 'x-trace-token': 'e2e-test-token' },
    })
  ).json()) as { result: { formats: { name: string }[] } };
  const names = answer.result.formats.map((f) => f.name);
  expect(names).toEqual(expect.arrayContaining(['slime rollout dump', 'OpenTelemetry JSON lines']));
  await expect(page.getByTestId('start-format')).toHaveText(
    names.map((n) => new RegExp(`^${n.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`)),
  );
  await expect(page.getByTestId('start-folders')).toContainText('a run');
  // the demo opens by path in one click, and is then among the recent files
  await page.getByTestId('start-demo').click();
  await fileOpen(page, 'rollout_demo.pt');
  await expect(page.getByTestId('timeline-row').first()).toHaveAttribute('data-bars', /\d+/);
  // `?`: the keys, and the words the answers use
  await page.keyboard.press('?');
  const glossary = page.getByTestId('glossary');
  for (const word of ['own window', 'kept open', 'stale', 'aborted', 'unfinished'])
    await expect(glossary.locator(`[data-word="${word}"] dd`)).not.toBeEmpty();
  await page.keyboard.press('Escape');
  await expect(glossary).toHaveCount(0);
  await page.getByTestId('file-tab').getByRole('button', { name: /close/i }).click();
  await expect(page.getByTestId('start-recent')).toContainText('rollout_demo.pt');
});

test('opening a dump through the file input shows its tab', async ({ page }) => {
  await page.goto(URL);
  await page.getByTestId('file-input').setInputFiles(resolve(fixtures, 'slime/rollout_small.pt'));
  await fileOpen(page, 'rollout_small.pt');
  await expect(page.getByTestId('empty-state')).toHaveCount(0);
});

test('a file that cannot be read shows a banner naming it; the app stays usable', async ({
  page,
}) => {
  await page.goto(URL);
  await page.getByTestId('file-input').setInputFiles(resolve(fixtures, 'slime/not_a_dump.pt'));
  const banner = page.getByTestId('error-banner');
  await expect(banner).toContainText('not_a_dump.pt');
  await expect(banner).toContainText('not a torch.save file');
  await page.getByTestId('file-input').setInputFiles(resolve(fixtures, 'slime/rollout_nopd.pt'));
  await fileOpen(page, 'rollout_nopd.pt');
  await expect(page.getByTestId('error-banner')).toHaveCount(1);
});

test('API calls without the token are refused', async ({ request }) => {
  const response = await request.post('/api/call', { data: { method: 'listFiles', args: [] } });
  expect(response.status()).toBe(403);
  const ok = await request.post('/api/call', {
    data: { method: 'listFiles', args: [] },
    headers: { 'x-trace-token': 'e2e-test-token' },
  });
  expect(ok.status()).toBe(200);
  const bad = await request.post('/api/call', {
    data: { method: 'getRows', args: ['x', 'not-a-list'] },
    headers: { 'x-trace-token': 'e2e-test-token' },
  });
  expect(bad.status()).toBe(400);
});

test('a theme choice wins over the system setting, both ways, and the canvas follows', async ({
  page,
}) => {
  const background = () => page.evaluate(() => getComputedStyle(document.body).backgroundColor);
  const canvasCorner = () =>
    page.getByTestId('timeline-canvas').evaluate((c: HTMLCanvasElement) => {
      const [r, g, b] = c.getContext('2d')!.getImageData(c.width - 2, c.height - 2, 1, 1).data;
      return r + g + b;
    });
  await page.emulateMedia({ colorScheme: 'light' });
  await page.goto(URL);
  await page.getByTestId('file-input').setInputFiles(resolve(fixtures, 'slime/rollout_small.pt'));
  await expect(page.getByTestId('timeline-row').first()).toHaveAttribute('data-bars', /\d+/);
  expect(await background()).toBe('rgb(247, 247, 249)');
  const lightCorner = await canvasCorner();
  await page.getByTitle('Theme').click();
  await page.getByRole('menuitem', { name: 'Dark' }).click();
  await expect.poll(background).toBe('rgb(23, 25, 29)');
  await expect.poll(canvasCorner).toBeLessThan(lightCorner);
  // the choice survives a reload; "Follow system" then goes back to the (light) system theme
  await page.reload();
  await expect.poll(background).toBe('rgb(23, 25, 29)');
  await page.getByTitle('Theme').click();
  await page.getByRole('menuitem', { name: 'Follow system' }).click();
  await expect.poll(background).toBe('rgb(247, 247, 249)');
  // and a dark system with a Light choice stays light
  await page.emulateMedia({ colorScheme: 'dark' });
  await expect.poll(background).toBe('rgb(23, 25, 29)');
  await page.getByTitle('Theme').click();
  await page.getByRole('menuitem', { name: 'Light' }).click();
  await expect.poll(background).toBe('rgb(247, 247, 249)');
});
