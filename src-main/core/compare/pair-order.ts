/**
 * Positions 0..n-1 ordered by `change` descending, equal changes in position order: the
 * matched-samples table's order. A comparator sort of 100k positions costs tens of
 * milliseconds; this sorts the values natively, then places each position by its value's
 * rank (a binary search), which keeps equal values in position order.
 */
export function orderByChange(change: Float64Array): Int32Array {
  const n = change.length;
  const ascending = Float64Array.from(change).sort();
  // the distinct values, biggest first
  const distinct = new Float64Array(n);
  let count = 0;
  for (let i = n - 1; i >= 0; i--) {
    if (count === 0 || ascending[i] !== distinct[count - 1]) distinct[count++] = ascending[i];
  }
  const rank = new Int32Array(n);
  const starts = new Int32Array(count + 1);
  for (let k = 0; k < n; k++) {
    rank[k] = rankOf(distinct, count, change[k]);
    starts[rank[k] + 1] += 1;
  }
  for (let r = 1; r <= count; r++) starts[r] += starts[r - 1];
  const order = new Int32Array(n);
  for (let k = 0; k < n; k++) order[starts[rank[k]]++] = k;
  return order;
}

/** where `value` is in the first `count` values of `distinct` (descending, value among them) */
function rankOf(distinct: Float64Array, count: number, value: number): number {
  let low = 0;
  let high = count - 1;
  while (low < high) {
    const mid = (low + high) >> 1;
    if (distinct[mid] > value) low = mid + 1;
    else high = mid;
  }
  return low;
}
