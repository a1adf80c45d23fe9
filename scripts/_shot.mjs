import { chromium } from 'playwright-core';
const [url, out, action] = process.argv.slice(2);
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run'] });
const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
page.on('pageerror', (e) => console.log('pageerror:', e.message));
page.on('console', (m) => m.type() === 'error' && console.log('console:', m.text()));
await page.goto(url);
await page.waitForTimeout(1500);
if (action === 'click') {
  const canvas = page.getByTestId('timeline-canvas');
  const box = await canvas.boundingBox();
  await page.mouse.move(box.x + 200, box.y + 30);
  await page.mouse.down(); await page.mouse.up();
  await page.waitForTimeout(300);
  await page.mouse.move(box.x + 400, box.y + 60);
  await page.waitForTimeout(300);
}
if (action === 'perf') { await page.getByTestId('view-perf').click(); await page.waitForTimeout(800); }
if (action === 'dark') { await page.emulateMedia({ colorScheme: 'dark' }); await page.waitForTimeout(500); }
await page.screenshot({ path: out });
await browser.close();
