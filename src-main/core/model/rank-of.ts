/**
 * The value of rank `k` (0-based) among `values`, by quickselect (Hoare partition, middle
 * pivot): a median or a quantile in linear time, where a sort of 100k values takes n log n.
 * Reorders `values`: the rank is put in place, smaller values before it and larger after.
 * `values` hold no NaN (callers keep the finite ones).
 */
export function valueOfRank(values: Float64Array, k: number): number {
  let left = 0;
  let right = values.length - 1;
  while (left < right) {
    const pivot = values[(left + right) >> 1];
    let i = left;
    let j = right;
    while (i <= j) {
      while (values[i] < pivot) i++;
      while (values[j] > pivot) j--;
      if (i <= j) {
        const t = values[i];
        values[i] = values[j];
        values[j] = t;
        i++;
        j--;
      }
    }
    if (k <= j) right = j;
    else if (k >= i) left = i;
    else return values[k];
  }
  return values[k];
}

/** The smallest of `values` from index `from` on (after valueOfRank: the next rank up). */
export function smallestFrom(values: Float64Array, from: number): number {
  let smallest = Infinity;
  for (let i = from; i < values.length; i++) if (values[i] < smallest) smallest = values[i];
  return smallest;
}
