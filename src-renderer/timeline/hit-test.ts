import type { HitBox } from './draw-timeline';

/** The item under (x, y): markers win over the bars they sit on. */
export function hitAt(hits: readonly HitBox[], x: number, y: number): HitBox | null {
  let best: HitBox | null = null;
  for (const h of hits) {
    if (x < h.x0 || x > h.x1 || y < h.y0 || y > h.y1) continue;
    if (!best || (h.point && !best.point)) best = h;
  }
  return best;
}
