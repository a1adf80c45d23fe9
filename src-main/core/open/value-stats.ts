import type { ValueStats } from '../model/perf';

/** Count, mean, median, p90 and extremes of the finite values; null when there are none. */
export function valueStats(values: ArrayLike<number>): ValueStats | null {
  let n = 0;
  for (let i = 0; i < values.length; i++) if (Number.isFinite(values[i])) n++;
  if (n === 0) return null;
  // a typed array sorts numerically and fast: 100k values in a few ms
  const sorted = new Float64Array(n);
  let k = 0;
  for (let i = 0; i < values.length; i++) if (Number.isFinite(values[i])) sorted[k++] = values[i];
  sorted.sort();
  let total = 0;
  for (let i = 0; i < n; i++) total += sorted[i];
  return {
    count: n,
    min: sorted[0],
    max: sorted[n - 1],
    mean: total / n,
    median: quantile(sorted, 0.5),
    p90: quantile(sorted, 0.9),
    total,
  };
}

/** numpy's default quantile: linear interpolation between closest ranks. */
function quantile(sorted: Float64Array, q: number): number {
  const pos = (sorted.length - 1) * q;
  const lo = Math.floor(pos);
  const hi = Math.ceil(pos);
  return sorted[lo] + (sorted[hi] - sorted[lo]) * (pos - lo);
}
