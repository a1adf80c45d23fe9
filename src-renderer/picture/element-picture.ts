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
export async function elementPng(
  element: HTMLElement,
  background: string,
  /** CSS pixels of the element's top-left to keep (its whole box without) */
  size?: { width: number; height: number },
): Promise<Blob> {
  return canvasPng(await elementCanvas(element, background, size));
}

/** An element drawn as elementPng draws it, as a canvas (to draw into another picture). */
export function elementCanvas(
  element: HTMLElement,
  background: string,
  size?: { width: number; height: number },
): Promise<HTMLCanvasElement> {
  return withInlinedSvgStyles(element, () =>
    withScrollShown(element, () =>
      toCanvas(element, {
        ...size,
        pixelRatio: PICTURE_PIXEL_RATIO,
        backgroundColor: background,
        // what is shown, without the scroll bars of a scrolled view
        style: { overflow: 'hidden' },
        filter: (node) => !(node instanceof HTMLElement && node.dataset.pictureSkip !== undefined),
      }),
    ),
  );
}

/**
 * Runs `make` with the children of every scrolled box under `root` (root included) moved by
 * its scroll, then puts them back: html-to-image's copy starts each box at scroll 0, so a
 * scrolled view came out as its top, and a virtualized table (rows only where it is scrolled
 * to) as blank. The move is the CSS `translate` property, which the copy takes with the rest of
 * the computed style and which leaves a child's own `transform` alone. A sticky child (a
 * table's head) stays where it sticks: it is not moved along the axis it sticks on.
 */
export async function withScrollShown<T>(root: Element, make: () => Promise<T>): Promise<T> {
  const moved: { element: HTMLElement; before: string }[] = [];
  for (const box of [root, ...Array.from(root.querySelectorAll('*'))]) {
    const { scrollLeft: x, scrollTop: y } = box;
    if (x === 0 && y === 0) continue;
    for (const child of Array.from(box.children)) {
      if (!(child instanceof HTMLElement)) continue;
      const style = getComputedStyle(child);
      const sticky = style.position === 'sticky';
      const dx = sticky && style.left !== 'auto' ? 0 : x;
      const dy = sticky && style.top !== 'auto' ? 0 : y;
      moved.push({ element: child, before: child.style.translate });
      child.style.translate = `${-dx}px ${-dy}px`;
    }
  }
  try {
    return await make();
  } finally {
    for (const { element, before } of moved) element.style.translate = before;
  }
}

/** The page's background colour (the theme's). */
function pageBackground(): string {
  return getComputedStyle(document.documentElement).getPropertyValue('--bg').trim() || '#ffffff';
}

/**
 * The colour shown behind `element`, painted under its picture: its own background, or its
 * nearest ancestor's that has one (a table without a background sits on its panel's, not on
 * the page's), else the page's.
 */
export function shownBackground(element: Element): string {
  for (let at: Element | null = element; at; at = at.parentElement) {
    const colour = getComputedStyle(at).backgroundColor;
    if (colour && colour !== 'transparent' && !/^rgba\(.*,\s*0\)$/.test(colour)) return colour;
  }
  return pageBackground();
}
