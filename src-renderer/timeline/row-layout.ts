import { lastAtOrBefore } from '../../src-main/core/model/sorted-search';

/** the default lane height; the toolbar's density control changes it (LANE_HEIGHTS) */
export const LANE_HEIGHT = 16;
export const LANE_HEIGHTS = [8, 12, 16, 22] as const;
export const ROW_PADDING = 6;
/** the time axis above the rows */
export const AXIS_HEIGHT = 28;

/** Heights and tops of rows in display order: collapsed rows show one lane. */
export interface RowLayout {
  tops: Float64Array;
  heights: Float64Array;
  total: number;
}

/**
 * `expanded`: per row, or the same for every row (no call per row: a sort of 100k rows lays
 * them out again, and a lookup per row was a third of that).
 */
export function layoutRows(
  laneCounts: ArrayLike<number>,
  expanded: boolean | ((index: number) => boolean),
  laneHeight = LANE_HEIGHT,
): RowLayout {
  const n = laneCounts.length;
  const tops = new Float64Array(n);
  const heights = new Float64Array(n);
  let y = 0;
  for (let i = 0; i < n; i++) {
    const open = typeof expanded === 'boolean' ? expanded : expanded(i);
    const lanes = open ? Math.max(1, laneCounts[i]) : 1;
    heights[i] = lanes * laneHeight + ROW_PADDING;
    tops[i] = y;
    y += heights[i];
  }
  return { tops, heights, total: y };
}

/**
 * Whether every row expanded fits in `height`: layoutRows(laneCounts, true).total <= height,
 * without laying out the rows past the height (at 100k rows it is over after a screen's).
 */
export function expandedFits(
  laneCounts: ArrayLike<number>,
  height: number,
  laneHeight = LANE_HEIGHT,
): boolean {
  let y = 0;
  for (let i = 0; i < laneCounts.length; i++) {
    y += Math.max(1, laneCounts[i]) * laneHeight + ROW_PADDING;
    if (y > height) return false;
  }
  return true;
}

/**
 * How many leading rows show all their lanes when not every row fits `height` expanded: the
 * first always, then each next one while the rows (those expanded, the rest collapsed to one
 * lane) still fit. For rows that each hold a screen of lanes (a GPU profile's ranks: CPU
 * threads, then GPU streams), so that a trace opens with the first one's streams in view.
 */
export function leadingExpanded(
  laneCounts: ArrayLike<number>,
  height: number,
  laneHeight = LANE_HEIGHT,
): number {
  const n = laneCounts.length;
  let total = n * (laneHeight + ROW_PADDING);
  let count = 0;
  while (count < n) {
    const more = (Math.max(1, laneCounts[count]) - 1) * laneHeight;
    if (count > 0 && total + more > height) break;
    total += more;
    count++;
  }
  return count;
}

/**
 * How many leading rows open expanded by default: every row when all fit `height` expanded;
 * else none, but rows that each hold a screen of lanes (`openLeading`: a GPU profile's ranks)
 * open their first ones (leadingExpanded). The app's timeline (useRowExpansion, its 'auto'
 * mode) and `report --png` both open rows by this rule.
 */
export function defaultExpandedRows(
  laneCounts: ArrayLike<number>,
  height: number,
  laneHeight: number,
  openLeading: boolean,
): number {
  if (expandedFits(laneCounts, height, laneHeight)) return laneCounts.length;
  return openLeading ? leadingExpanded(laneCounts, height, laneHeight) : 0;
}

/** First and last row index intersecting [scrollTop, scrollTop + height). */
export function visibleRange(
  layout: RowLayout,
  scrollTop: number,
  height: number,
): [number, number] {
  const n = layout.tops.length;
  if (n === 0) return [0, -1];
  const first = Math.max(0, lastAtOrBefore(layout.tops, scrollTop));
  let last = first;
  while (last + 1 < n && layout.tops[last + 1] < scrollTop + height) last++;
  return [first, last];
}

/** Which row index is at y (content coordinates), or -1. */
export function rowAt(layout: RowLayout, y: number): number {
  const [first] = visibleRange(layout, y, 0);
  return first < layout.tops.length &&
    y >= layout.tops[first] &&
    y < layout.tops[first] + layout.heights[first]
    ? first
    : -1;
}
