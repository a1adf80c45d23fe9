import { test, expect, type Page } from '@playwright/test';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { PNG } from 'pngjs';
import { writeTimelinePng } from '../../src-main/cli/timeline-png';
import { typeQuery } from './support/type-query';
import { canvasPixels, differing, drawnShare } from './support/png-pixels';
import { PICTURE_MADE, pick, readPng, zoomIn } from './support/picture-menu';

// Pictures of views: the timeline's PNG is its own drawing again at 2x (compared with the app's
// canvas on a 2x screen, and with the headless picture), a chart's SVG holds its axis labels.
const SLIME = resolve(__dirname, '../fixtures/slime');
const URL = '/?token=e2e-test-token';

test.use({ viewport: { width: 1440, height: 900 }, deviceScaleFactor: 2, colorScheme: 'light' });

interface Plot {
  x: number;
  y: number;
  width: number;
  height: number;
}

async function open(page: Page, name: string) {
  await page.goto(URL);
  await page.getByTestId('file-input').setInputFiles(resolve(SLIME, name));
  await expect(page.getByTestId('timeline-row').first()).toHaveAttribute('data-bars', /\d+/);
}

/** The app's timeline canvas as it is on screen, in device pixels. */
const timelinePixels = (page: Page) => canvasPixels(page.getByTestId('timeline-canvas'));

test("the timeline's PNG at a zoomed window is 2x and is the app's own canvas drawing", async ({
  page,
}) => {
  await open(page, 'rollout_small.pt');
  await zoomIn(page);
  const picture = await readPng(
    await pick(page, page.getByTestId('timeline-picture'), 'Save PNG…'),
  );
  const plot = JSON.parse(
    (await page.getByTestId('timeline').getAttribute('data-picture-plot'))!,
  ) as Plot;
  const box = (await page.getByTestId('timeline-canvas').boundingBox())!;
  expect(plot.width).toBeCloseTo(box.width, 3);
  expect(plot.height).toBeCloseTo(box.height, 3);
  const canvas = await timelinePixels(page);
  // the screen is 2x here, so the canvas has 2 device pixels per CSS pixel, as the picture
  expect([canvas.width, canvas.height]).toEqual([
    Math.round(box.width * 2),
    Math.round(box.height * 2),
  ]);
  expect(picture.width).toBe(Math.round((plot.x + plot.width) * 2));
  expect(picture.height).toBe(Math.round((plot.y + plot.height) * 2));
  const at: [number, number] = [Math.round(plot.x * 2), Math.round(plot.y * 2)];
  const size: [number, number] = [canvas.width, canvas.height];
  expect(drawnShare(canvas, [0, 0], size)).toBeGreaterThan(0.05);
  // drawn by the same code at the same scale: the same pixels but for antialiasing noise
  expect(differing(picture, at, canvas, [0, 0], size, 24)).toBeLessThan(0.001);
});

test('the headless PNG of a window matches the app’s drawing of that window', async ({ page }) => {
  await open(page, 'rollout_small.pt');
  const window = await zoomIn(page);
  const app = await readPng(await pick(page, page.getByTestId('timeline-picture'), 'Save PNG…'));
  const plot = JSON.parse(
    (await page.getByTestId('timeline').getAttribute('data-picture-plot'))!,
  ) as Plot;
  const dir = mkdtempSync(join(tmpdir(), 'pictures-e2e-'));
  const headless = async (name: string, w: { startSec: number; endSec: number }) => {
    const out = join(dir, name);
    const result = await writeTimelinePng({
      path: resolve(SLIME, 'rollout_small.pt'),
      window: w,
      out,
      width: plot.x + plot.width,
      height: plot.y + plot.height,
    });
    return { png: PNG.sync.read(readFileSync(out)), plot: result.plot };
  };
  const same = await headless('same.png', window);
  const span = window.endSec - window.startSec;
  const shifted = await headless('shifted.png', {
    startSec: window.startSec + span * 0.5,
    endSec: window.endSec + span * 0.5,
  });
  expect(same.plot.x).toBe(plot.x);
  expect(same.plot.width).toBeCloseTo(plot.width, 6);
  // the legend's height follows its fonts' widths: compare the rows' region both have
  const size: [number, number] = [
    Math.round(plot.width * 2),
    Math.round(Math.min(plot.height, same.plot.height) * 2),
  ];
  const appAt: [number, number] = [Math.round(plot.x * 2), Math.round(plot.y * 2)];
  const at = (p: Plot): [number, number] => [Math.round(p.x * 2), Math.round(p.y * 2)];
  // skia and Chromium rasterize the bar labels' glyphs differently; bars, markers and row
  // shading are the same rectangles. A pixel counts as different past 60 of 765 levels: the
  // glyphs made 0.09% of the region differ here (limit 0.5%), the same picture half a window
  // later in time 1.35% (it must be at least 5x the match's)
  const near = differing(app, appAt, same.png, at(same.plot), size, 60);
  const far = differing(app, appAt, shifted.png, at(shifted.plot), size, 60);
  expect(drawnShare(same.png, at(same.plot), size)).toBeGreaterThan(0.05);
  expect(near).toBeLessThan(0.005);
  expect(far).toBeGreaterThan(near * 5);
});

test("a chart's SVG is valid SVG holding its axis labels, in the theme's colours", async ({
  page,
}) => {
  await open(page, 'rollout_small.pt');
  await page.getByTestId('view-perf').click();
  const chart = page.locator('.chart-picture', { has: page.getByTestId('running-chart') });
  await expect(chart.getByTestId('running-chart')).toBeVisible();
  const shown = await chart
    .getByTestId('running-chart')
    .evaluate((svg) => Array.from(svg.querySelectorAll('text'), (t) => t.textContent ?? ''));
  expect(shown.length).toBeGreaterThan(5);
  const text = readFileSync(
    (await (await pick(page, chart.getByTestId('chart-picture'), 'Save SVG…')).path())!,
    'utf8',
  );
  expect(text.startsWith('<?xml')).toBe(true);
  expect(text).not.toContain('var(');
  const parsed = await page.evaluate((source) => {
    const doc = new DOMParser().parseFromString(source, 'image/svg+xml');
    return {
      error: doc.querySelector('parsererror')?.textContent ?? null,
      root: doc.documentElement.localName,
      namespace: doc.documentElement.namespaceURI,
      texts: Array.from(doc.querySelectorAll('text'), (t) => t.textContent ?? ''),
    };
  }, text);
  expect(parsed.error).toBeNull();
  expect(parsed.root).toBe('svg');
  expect(parsed.namespace).toBe('http://www.w3.org/2000/svg');
  expect(parsed.texts).toEqual(shown);
  expect(parsed.texts).toEqual(expect.arrayContaining(['0', '5s', '45s']));
});

test("a view's PNG is the view at 2x; Copy PNG and Ctrl+Alt+C put 2x pictures on the clipboard", async ({
  page,
  context,
}) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  await open(page, 'rollout_small.pt');
  const menu = page.getByTestId('timeline-picture');
  await menu.getByRole('button').first().click();
  await menu.getByRole('menuitem', { name: 'Copy PNG' }).click();
  await expect(menu).toHaveAttribute('data-state', 'done', PICTURE_MADE);
  const plot = JSON.parse(
    (await page.getByTestId('timeline').getAttribute('data-picture-plot'))!,
  ) as Plot;
  const copied = await page.evaluate(async () => {
    const [item] = await navigator.clipboard.read();
    const bitmap = await createImageBitmap(await item.getType('image/png'));
    return { types: item.types, width: bitmap.width, height: bitmap.height };
  });
  expect(copied.types).toContain('image/png');
  expect([copied.width, copied.height]).toEqual([
    Math.round((plot.x + plot.width) * 2),
    Math.round((plot.y + plot.height) * 2),
  ]);

  await page.getByTestId('view-perf').click();
  const view = page.getByTestId('perf-view');
  await expect(view.getByTestId('running-chart')).toBeVisible();
  const box = (await view.boundingBox())!;
  const png = await readPng(await pick(page, page.getByTestId('view-picture'), 'Save PNG…'));
  expect([png.width, png.height]).toEqual([Math.round(box.width * 2), Math.round(box.height * 2)]);
  expect(drawnShare(png, [0, 0], [png.width, png.height])).toBeGreaterThan(0.05);

  // Copy Picture (Ctrl/Cmd+Alt+C, File's menu in Electron) copies the shown view's picture
  const viewMenu = page.getByTestId('view-picture');
  await page.keyboard.press('Control+Alt+KeyC');
  await expect(viewMenu).toHaveAttribute('data-action', 'copy-png');
  await expect(viewMenu).toHaveAttribute('data-state', 'done', PICTURE_MADE);
  const viaKey = await page.evaluate(async () => {
    const [item] = await navigator.clipboard.read();
    const bitmap = await createImageBitmap(await item.getType('image/png'));
    return [bitmap.width, bitmap.height];
  });
  expect(viaKey).toEqual([png.width, png.height]);
});

test("the Query result's PNG is the table as shown at 2x, scrolled rows included, cut to its columns", async ({
  page,
}) => {
  await open(page, 'rollout_small.pt');
  await page.getByTestId('view-query').click();
  await typeQuery(
    page,
    'SELECT row, item, name, round(duration_sec, 3) AS sec FROM spans ORDER BY row, item',
  );
  await expect(page.getByTestId('sql-status')).toContainText('89 rows', PICTURE_MADE);
  const table = page.getByTestId('sql-result');
  // what the screen shows of the table: its box without the scroll bars the picture leaves out
  const shown = async (): Promise<PNG> => {
    await page.mouse.move(0, 0);
    return PNG.sync.read(await table.screenshot());
  };
  const inside = await table.evaluate((el) => [
    el.clientLeft + el.clientWidth,
    el.clientTop + el.clientHeight,
  ]);
  const size: [number, number] = [inside[0] * 2, inside[1] * 2];
  const top = await shown();
  // scrolled past the first rows: a virtualized table has only the rows in view in the page
  await table.evaluate((el) => (el.scrollTop = 24 * 40));
  await expect(page.locator('[data-testid="sql-row"][data-row="40"]')).toBeInViewport();
  await expect(page.locator('[data-testid="sql-row"][data-row="0"]')).toHaveCount(0);
  const scrolled = await shown();
  const picture = await readPng(await pick(page, page.getByTestId('query-picture'), 'Save PNG…'));
  const box = (await table.boundingBox())!;
  // 89 rows fill the box's height; its width is cut where the last column ends
  const columnsEnd = (await page.locator('.sql-result-head > .sql-cell').last().boundingBox())!;
  const cut = columnsEnd.x + columnsEnd.width - box.x;
  expect(cut).toBeLessThan(box.width * 0.8);
  expect(picture.height).toBe(Math.round(box.height * 2));
  expect(Math.abs(picture.width - cut * 2)).toBeLessThanOrEqual(4);
  size[0] = Math.min(size[0], picture.width);
  expect(drawnShare(picture, [0, 0], size)).toBeGreaterThan(0.05);
  // the page draws the copy's text itself (html-to-image sets fonts 0.1 px smaller), so glyphs
  // differ pixel by pixel: compared as 16x16 blocks' mean levels, the scrolled view's 0.3% of
  // blocks differed, the table's top 4.7%
  const near = blocksDiffering(picture, scrolled, size);
  const far = blocksDiffering(picture, top, size);
  expect(near).toBeLessThan(0.01);
  expect(far).toBeGreaterThan(Math.max(near * 5, 0.02));
});

/**
 * The share of 16x16 blocks of `a`'s region at (0, 0), `w` x `h` device pixels, whose mean grey
 * level differs by more than 10 (of 255) from `b`'s, `b` moved up by 0-3 device pixels to line
 * up (an element's screenshot starts at a whole CSS pixel, the picture where the element does):
 * the least of those.
 */
function blocksDiffering(a: PNG, b: PNG, [w, h]: [number, number]): number {
  const BLOCK = 16;
  const grey = (png: PNG, x: number, y: number) => {
    const i = (y * png.width + x) * 4;
    return (png.data[i] + png.data[i + 1] + png.data[i + 2]) / 3;
  };
  const rows = Math.floor((h - 3) / BLOCK);
  const columns = Math.floor(w / BLOCK);
  let least = 1;
  for (let dy = 0; dy <= 3; dy++) {
    let count = 0;
    for (let by = 0; by < rows; by++) {
      for (let bx = 0; bx < columns; bx++) {
        let sum = 0;
        for (let y = by * BLOCK; y < (by + 1) * BLOCK; y++)
          for (let x = bx * BLOCK; x < (bx + 1) * BLOCK; x++)
            sum += grey(a, x, y) - grey(b, x, y + dy);
        if (Math.abs(sum / (BLOCK * BLOCK)) > 10) count++;
      }
    }
    least = Math.min(least, count / (rows * columns));
  }
  return least;
}
