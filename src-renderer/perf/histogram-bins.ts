import { scaleLinear } from '@visx/scale';

export interface HistogramBin {
  x0: number;
  x1: number;
  count: number;
  /** distinct row ids of the values in the bin (for "show these samples") */
  rowIds: number[];
}

export interface Histogram {
  bins: HistogramBin[];
  /** values that were not finite numbers and were left out */
  skipped: number;
  maxCount: number;
}

/**
 * Equal-width bins on round edges: the domain is widened by visx's `nice` (d3's tick rules), so
 * bins read "0.10-0.15 s" rather than "0.0973-0.1461 s". Values sit in [x0, x1); the last bin
 * also takes its upper edge. No spreads over the values: series can hold 100k+ requests.
 */
export function binValues(
  values: ArrayLike<number>,
  rowIds: ArrayLike<number> | null,
  binCount = 20,
): Histogram {
  let lo = Infinity;
  let hi = -Infinity;
  let skipped = 0;
  for (let i = 0; i < values.length; i++) {
    const v = values[i];
    if (!Number.isFinite(v)) {
      skipped++;
      continue;
    }
    if (v < lo) lo = v;
    if (v > hi) hi = v;
  }
  if (lo > hi) return { bins: [], skipped, maxCount: 0 };
  if (lo === hi) {
    // one value: one bin around it, so it still shows as a bar
    const pad = lo === 0 ? 0.5 : Math.abs(lo) * 0.05;
    lo -= pad;
    hi += pad;
  }
  const scale = scaleLinear<number>({ domain: [lo, hi] }).nice(binCount);
  const edges = scale.ticks(binCount);
  const [d0, d1] = scale.domain();
  if (edges.length < 2 || edges[0] > d0) edges.unshift(d0);
  if (edges[edges.length - 1] < d1) edges.push(d1);
  const width = edges[1] - edges[0];
  const n = edges.length - 1;
  const counts = new Array<number>(n).fill(0);
  const rows: Set<number>[] = Array.from({ length: n }, () => new Set<number>());
  for (let i = 0; i < values.length; i++) {
    const v = values[i];
    if (!Number.isFinite(v)) continue;
    // ticks are evenly spaced: index by arithmetic, then fix float edge cases by comparison
    let b = Math.min(n - 1, Math.max(0, Math.floor((v - edges[0]) / width)));
    while (b > 0 && v < edges[b]) b--;
    while (b < n - 1 && v >= edges[b + 1]) b++;
    counts[b]++;
    if (rowIds) rows[b].add(rowIds[i]);
  }
  let maxCount = 0;
  const bins = counts.map((count, b) => {
    if (count > maxCount) maxCount = count;
    return { x0: edges[b], x1: edges[b + 1], count, rowIds: [...rows[b]] };
  });
  return { bins, skipped, maxCount };
}
