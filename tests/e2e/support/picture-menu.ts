import { expect, type Download, type Locator, type Page } from '@playwright/test';
import { readFileSync } from 'node:fs';
import { PNG } from 'pngjs';

// a 2x picture is drawn and encoded in the page: seconds on a busy machine; the menu's
// data-state says when it is made
export const PICTURE_MADE = { timeout: 60_000 };

/** Zooms in with the app's own W key until the axis says the window changed; returns it. */
export async function zoomIn(page: Page): Promise<{ startSec: number; endSec: number }> {
  const axis = page.getByTestId('time-axis');
  const before = await axis.getAttribute('data-end');
  for (let i = 0; i < 4; i++) await page.keyboard.press('w');
  await expect(axis).not.toHaveAttribute('data-end', before!);
  // the canvas draws in an effect after the render that moved the axis: two frames later it has
  await page.evaluate(
    () => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))),
  );
  return {
    startSec: Number(await axis.getAttribute('data-start')),
    endSec: Number(await axis.getAttribute('data-end')),
  };
}

/** Picks `item` of a Picture menu; the download, once the menu says the picture is made. */
export async function pick(page: Page, menu: Locator, item: string): Promise<Download> {
  await menu.hover();
  await menu.getByRole('button').first().click();
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    menu.getByRole('menuitem', { name: item }).click(),
  ]);
  await expect(menu).toHaveAttribute('data-state', 'done', PICTURE_MADE);
  return download;
}

export const readPng = async (download: Download) =>
  PNG.sync.read(readFileSync((await download.path())!));
