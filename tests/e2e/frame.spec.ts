import { test, expect } from '@playwright/test';
import { resolve } from 'node:path';

const fixtures = resolve(__dirname, '../../../shared/fixtures');
const URL = '/?token=e2e-test-token';

test('the empty window says what it opens', async ({ page }) => {
  await page.goto(URL);
  await expect(page.getByTestId('empty-state')).toContainText('Drop .pt or .jsonl files here');
  await expect(page.getByTestId('open-button')).toBeVisible();
});

test('opening a dump through the file input shows its tab', async ({ page }) => {
  await page.goto(URL);
  await page.getByTestId('file-input').setInputFiles(resolve(fixtures, 'slime/rollout_small.pt'));
  await expect(page.getByTestId('file-tab')).toContainText('rollout_small.pt');
  await expect(page.getByTestId('empty-state')).toHaveCount(0);
});

test('a file that cannot be read shows a banner naming it; the app stays usable', async ({ page }) => {
  await page.goto(URL);
  await page.getByTestId('file-input').setInputFiles(resolve(fixtures, 'slime/not_a_dump.pt'));
  const banner = page.getByTestId('error-banner');
  await expect(banner).toContainText('not_a_dump.pt');
  await expect(banner).toContainText('not a torch.save file');
  await page.getByTestId('file-input').setInputFiles(resolve(fixtures, 'slime/rollout_nopd.pt'));
  await expect(page.getByTestId('file-tab')).toContainText('rollout_nopd.pt');
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
