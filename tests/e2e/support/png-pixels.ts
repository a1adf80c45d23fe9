import type { Locator } from '@playwright/test';
import { PNG } from 'pngjs';

/** A canvas's pixels as they are on screen, in device pixels. */
export async function canvasPixels(canvas: Locator): Promise<PNG> {
  const url = await canvas.evaluate((el: HTMLCanvasElement) => el.toDataURL('image/png'));
  return PNG.sync.read(Buffer.from(url.split(',')[1], 'base64'));
}

/**
 * The share of pixels of `a`'s region at (ax, ay) and `b`'s at (bx, by), `w` x `h` device
 * pixels, whose colours differ by more than `threshold` (summed over R, G, B).
 */
export function differing(
  a: PNG,
  [ax, ay]: [number, number],
  b: PNG,
  [bx, by]: [number, number],
  [w, h]: [number, number],
  threshold: number,
): number {
  let count = 0;
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      const i = ((ay + y) * a.width + ax + x) * 4;
      const j = ((by + y) * b.width + bx + x) * 4;
      const d =
        Math.abs(a.data[i] - b.data[j]) +
        Math.abs(a.data[i + 1] - b.data[j + 1]) +
        Math.abs(a.data[i + 2] - b.data[j + 2]);
      if (d > threshold) count++;
    }
  }
  return count / (w * h);
}

/** The share of a region's pixels that are not the page's light background (#f7f7f9). */
export function drawnShare(png: PNG, [x0, y0]: [number, number], [w, h]: [number, number]): number {
  let count = 0;
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      const i = ((y0 + y) * png.width + x0 + x) * 4;
      if (png.data[i] !== 0xf7 || png.data[i + 1] !== 0xf7 || png.data[i + 2] !== 0xf9) count++;
    }
  }
  return count / (w * h);
}
