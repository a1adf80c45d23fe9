import { toCanvas } from 'html-to-image';
import { canvasPng } from './picture-output';
import { withInlinedSvgStyles } from './svg-picture';

/** Device pixels per CSS pixel of every picture: sharp on a high-density screen and in print. */
export const PICTURE_PIXEL_RATIO = 2;

/**
 * A PNG of an element as shown (HTML and SVG, the theme's colours) at PICTURE_PIXEL_RATIO,
 * through html-to-image: the element is laid out again inside an SVG foreignObject and drawn by
 * the browser itself, so text stays text-sharp. Controls marked `data-picture-skip` are left
 * out (the Picture menu itself).
 */
export async function elementPng(element: HTMLElement, background: string): Promise<Blob> {
  return canvasPng(await elementCanvas(element, background));
}

/** An element drawn as elementPng draws it, as a canvas (to draw into another picture). */
export function elementCanvas(
  element: HTMLElement,
  background: string,
): Promise<HTMLCanvasElement> {
  return withInlinedSvgStyles(element, () =>
    toCanvas(element, {
      pixelRatio: PICTURE_PIXEL_RATIO,
      backgroundColor: background,
      // what is shown, without the scroll bars of a scrolled view
      style: { overflow: 'hidden' },
      filter: (node) => !(node instanceof HTMLElement && node.dataset.pictureSkip !== undefined),
    }),
  );
}

/** The page's background colour (the theme's), painted under every picture. */
export function pageBackground(): string {
  return getComputedStyle(document.documentElement).getPropertyValue('--bg').trim() || '#ffffff';
}
