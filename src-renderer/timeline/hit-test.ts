import type { HitBox } from './draw-timeline';

/**
 * The item under (x, y): markers win over the bars they sit on, a PD span (its phase segments
 * painted over its request in a collapsed row) over plain bars, and otherwise the first drawn.
 */
export function hitAt(hits: readonly HitBox[], x: number, y: number): HitBox | null {
  let best: HitBox | null = null;
  for (const h of hits) {
    if (x < h.x0 || x > h.x1 || y < h.y0 || y > h.y1) continue;
    if (!best || rank(h) > rank(best)) best = h;
  }
  return best;
}

const rank = (h: HitBox) => (h.point ? 2 : h.pd ? 1 : 0);
