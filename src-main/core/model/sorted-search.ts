/**
 * The index of the last of `sorted`'s values (ascending) at or before `value`; -1 when every
 * value is after it (or there are none). What a place in a sorted list of starts looks up: the
 * counted-id range an id falls in, the row a scroll offset shows, a running count at a time.
 */
export function lastAtOrBefore(sorted: ArrayLike<number>, value: number): number {
  let lo = 0;
  let hi = sorted.length;
  // the answer lies in [lo - 1, hi - 1]
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (sorted[mid] <= value) lo = mid + 1;
    else hi = mid;
  }
  return lo - 1;
}
