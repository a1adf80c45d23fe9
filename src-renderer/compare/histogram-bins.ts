export interface SharedBins {
  edges: number[];
  a: number[];
  b: number[];
}

/**
 * Histograms of two samples over the same bins, so they can be overlaid: equal-width bins over
 * the combined range.
 */
export function sharedHistogram(
  a: ArrayLike<number> & Iterable<number>,
  b: ArrayLike<number> & Iterable<number>,
  binCount = 24,
): SharedBins {
  const all = [...a, ...b].filter(Number.isFinite);
  if (all.length === 0) return { edges: [], a: [], b: [] };
  let lo = Math.min(...all);
  let hi = Math.max(...all);
  if (lo === hi) {
    lo -= 0.5;
    hi += 0.5;
  }
  const width = (hi - lo) / binCount;
  const edges = Array.from({ length: binCount + 1 }, (_, i) => lo + i * width);
  const count = (values: Iterable<number>) => {
    const bins = new Array<number>(binCount).fill(0);
    for (const v of values) {
      if (!Number.isFinite(v)) continue;
      bins[Math.min(binCount - 1, Math.floor((v - lo) / width))] += 1;
    }
    return bins;
  };
  return { edges, a: count(a), b: count(b) };
}
