import { test, expect } from '@playwright/test';
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { PNG } from 'pngjs';
import { writeRunTimelinePng } from '../../src-main/cli/run-timeline-png';
import { findRunFiles } from '../../src-main/ingest/run-files';
import { startServe } from './support/start-serve';
import { canvasPixels, differing, drawnShare } from './support/png-pixels';
import { pick, readPng, zoomIn } from './support/picture-menu';

/**
 * A run tab's Picture menu (issue 47): its PNG is the lane timeline's own drawing again at 2x,
 * the same pixels as its canvas on a 2x screen, with the rollout bands above the axis as shown.
 * The run: tests/fixtures/run/README.md.
 */
const CLI = resolve(__dirname, '../../out/main/cli.js');
const RUN = resolve(__dirname, '../fixtures/run');
// beside the suite's own server (E2E_PORT), so checkouts side by side do not collide
const PORT = Number(process.env.E2E_PORT ?? 4791) + 34;
const TOKEN = 'run-picture-token';
const tmp = mkdtempSync(join(tmpdir(), 'run-picture-'));

let server: ChildProcess;

test.beforeAll(async () => {
  ({ server } = await startServe(CLI, PORT, TOKEN, [RUN]));
});

test.afterAll(() => {
  server?.kill();
  rmSync(tmp, { recursive: true, force: true });
});

test.use({ viewport: { width: 1440, height: 900 }, deviceScaleFactor: 2, colorScheme: 'light' });

interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

test("the run tab's PNG at a zoomed window is its canvas drawn again at 2x, bands above", async ({
  page,
}) => {
  await page.goto(`http://127.0.0.1:${PORT}/?token=${TOKEN}`);
  await expect(page.getByTestId('run-view')).toHaveAttribute('data-state', 'complete', {
    timeout: 120_000,
  });
  const lanes = page.getByTestId('lane-timeline');
  // every row shown is fetched and drawn (its label says what it drew), asked of the page at
  // once: the rows in view arrive one fetch after another
  await expect
    .poll(() =>
      page.evaluate(() => {
        const rows = Array.from(document.querySelectorAll<HTMLElement>('[data-testid=lane-row]'));
        return rows.length > 0 && rows.every((row) => /\d/.test(row.dataset.bars ?? ''));
      }),
    )
    .toBe(true);
  const window = await zoomIn(page);
  const menu = lanes.getByTestId('timeline-picture');
  const picture = await readPng(await pick(page, menu, 'Save PNG…'));
  const plot = JSON.parse((await lanes.getAttribute('data-picture-plot'))!) as Box;
  const decor = JSON.parse((await lanes.getAttribute('data-picture-decor'))!) as Box;
  const canvasBox = (await page.getByTestId('lane-canvas').boundingBox())!;
  expect(plot.width).toBeCloseTo(canvasBox.width, 3);
  expect(plot.height).toBeCloseTo(canvasBox.height, 3);
  const canvas = await canvasPixels(page.getByTestId('lane-canvas'));
  expect([canvas.width, canvas.height]).toEqual([
    Math.round(canvasBox.width * 2),
    Math.round(canvasBox.height * 2),
  ]);
  expect(picture.width).toBe(Math.round((plot.x + plot.width) * 2));
  expect(picture.height).toBe(Math.round((plot.y + plot.height) * 2));
  const size: [number, number] = [canvas.width, canvas.height];
  expect(drawnShare(canvas, [0, 0], size)).toBeGreaterThan(0.05);
  // drawn by the same code at the same scale: the same pixels but for the glyphs' antialiasing
  // (the screen's canvas and the picture's smooth text alike but not to the pixel: the bar
  // labels, white on colour, made 0.23% of the run's plot differ here); the same picture 20 px
  // off must differ far more, or the measure says nothing
  const at: [number, number] = [Math.round(plot.x * 2), Math.round(plot.y * 2)];
  const near = differing(picture, at, canvas, [0, 0], size, 24);
  const off: [number, number] = [size[0] - 40, size[1]];
  const far = differing(picture, at, canvas, [40, 0], off, 24);
  expect(near).toBeLessThan(0.005);
  expect(far).toBeGreaterThan(near * 5);

  // the bands above the axis as the page shows them (the browser draws both)
  const shown = PNG.sync.read(await page.getByTestId('run-axis').screenshot());
  const decorAt: [number, number] = [Math.round(decor.x * 2), Math.round(decor.y * 2)];
  const bandsSize: [number, number] = [shown.width, shown.height];
  expect(drawnShare(shown, [0, 0], bandsSize)).toBeGreaterThan(0.02);
  const bandsNear = differing(picture, decorAt, shown, [0, 0], bandsSize, 60);
  console.log(`run picture: plot ${near} (20 px off ${far}), bands ${bandsNear}`);
  expect(bandsNear).toBeLessThan(0.02);
  // and the label column's group titles and row names, written beside the rows
  expect(drawnShare(picture, [0, at[1]], [at[0], size[1]])).toBeGreaterThan(0.01);

  // `report RUN --png` of the same window and size: the same lanes (pictures.spec.ts's
  // headless check, for the run tab). skia and Chromium rasterize the bar labels' glyphs
  // differently; the same picture half a window later must differ far more
  const headless = async (name: string, w: { startSec: number; endSec: number }) => {
    const out = join(tmp, name);
    const made = await writeRunTimelinePng(
      { path: RUN, files: findRunFiles([RUN]) },
      { out, window: w, width: plot.x + plot.width, height: plot.y + plot.height },
    );
    return { png: PNG.sync.read(readFileSync(out)), plot: made.plot };
  };
  const span = window.endSec - window.startSec;
  const same = await headless('same.png', window);
  const later = await headless('later.png', {
    startSec: window.startSec + span / 2,
    endSec: window.endSec + span / 2,
  });
  expect(same.plot.x).toBe(plot.x);
  expect(same.plot.width).toBeCloseTo(plot.width, 6);
  // the legends' heights follow their fonts' widths: the rows' region both have
  const rows: [number, number] = [size[0], Math.round(Math.min(plot.height, same.plot.height) * 2)];
  const headlessAt = (p: Box): [number, number] => [Math.round(p.x * 2), Math.round(p.y * 2)];
  const headlessNear = differing(picture, at, same.png, headlessAt(same.plot), rows, 60);
  const headlessFar = differing(picture, at, later.png, headlessAt(later.plot), rows, 60);
  console.log(`run picture headless: ${headlessNear} (half a window later ${headlessFar})`);
  expect(drawnShare(same.png, headlessAt(same.plot), rows)).toBeGreaterThan(0.05);
  expect(headlessNear).toBeLessThan(0.005);
  expect(headlessFar).toBeGreaterThan(headlessNear * 5);
});
