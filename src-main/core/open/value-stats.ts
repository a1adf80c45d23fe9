import type { ValueStats } from '../model/perf';
import { smallestFrom, valueOfRank } from '../model/rank-of';

/**
 * Count, mean, median, p90 and extremes of the finite values; null when there are none. The two
 * quantiles come from selection, not a sort: 100k values take a few milliseconds.
 */
export function valueStats(values: ArrayLike<number>): ValueStats | null {
  let n = 0;
  for (let i = 0; i < values.length; i++) if (Number.isFinite(values[i])) n++;
  if (n === 0) return null;
  const finite = new Float64Array(n);
  let k = 0;
  let total = 0;
  let min = Infinity;
  let max = -Infinity;
  for (let i = 0; i < values.length; i++) {
    const v = values[i];
    if (!Number.isFinite(v)) continue;
    finite[k++] = v;
    total += v;
    if (v < min) min = v;
    if (v > max) max = v;
  }
  return {
    count: n,
    min,
    max,
    mean: total / n,
    median: quantile(finite, 0.5),
    p90: quantile(finite, 0.9),
    total,
  };
}

/**
 * numpy's default quantile: linear interpolation between the closest ranks. Reorders `values`
 * (selection puts the rank in place, smaller values before it and larger after).
 */
function quantile(values: Float64Array, q: number): number {
  const pos = (values.length - 1) * q;
  const lo = Math.floor(pos);
  const below = valueOfRank(values, lo);
  if (pos === lo) return below;
  // the next rank up is the smallest value after the selected one
  const above = smallestFrom(values, lo + 1);
  return below + (above - below) * (pos - lo);
}
