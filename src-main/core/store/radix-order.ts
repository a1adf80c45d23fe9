/**
 * Indexes ordered by a column of numbers, by least-significant-digit radix sort on the
 * numbers' bits: a comparison sort of 100k rows calls back into JavaScript about two million
 * times (35-66 ms per order; the warm-up makes one per key while calls wait between its
 * steps); this reads each number's 64 bits 16 at a time (4 passes), skips the passes where
 * every number has the same 16 bits (most keys are small whole numbers: their low bits are all
 * 0), and takes 2-5 ms. No library sorts typed arrays by a key column with ties kept.
 */

/** Below this many values, the engine's comparison sort (the radix passes' fixed costs) */
const RADIX_MIN = 512;

const DIGIT_BITS = 16;
const BUCKETS = 1 << DIGIT_BITS;

/**
 * The indexes of `values` in ascending order of value: equal values in the order they have in
 * `tieOrder` (a permutation of 0..n-1), values that are NaN last, in index order. -0 equals 0.
 * `shortcuts` false: the radix passes always (the bench's before, a test's reference).
 */
export function ascendingIndexes(
  values: Float64Array,
  tieOrder: Int32Array,
  shortcuts = true,
): Int32Array {
  const n = values.length;
  const out = new Int32Array(n);
  // the valued indexes first, in tie order; NaN ones after them, by index
  let valued = 0;
  for (let k = 0; k < n; k++) {
    const r = tieOrder[k];
    if (values[r] === values[r]) out[valued++] = r;
  }
  let nan = valued;
  for (let r = 0; r < n; r++) if (values[r] !== values[r]) out[nan++] = r;
  const sorted = out.subarray(0, valued);
  // the passes below cost tens of milliseconds at 100k rows on a busy machine, and the
  // worker's warm-up makes one order per step while calls wait: a column already in order
  // (row ids, sample indexes, a dump's start times) is checked in one pass, a column of small
  // whole numbers (lanes, open spans, groups) counted into place in two
  if (shortcuts && inOrder(sorted, values)) return out;
  if (valued < RADIX_MIN) sortByComparison(sorted, values, tieOrder);
  else if (!shortcuts || !countingSort(sorted, values)) radixSort(sorted, values);
  return out;
}

/** Whether `values` never decrease along `indexes` (then the tie order is the order). */
function inOrder(indexes: Int32Array, values: Float64Array): boolean {
  for (let k = 1; k < indexes.length; k++)
    if (values[indexes[k - 1]] > values[indexes[k]]) return false;
  return true;
}

/**
 * Stable counting sort of `indexes` when every value is a whole number within a range of at
 * most COUNTING_RANGE_PER_VALUE times their count; false (nothing changed) otherwise.
 */
function countingSort(indexes: Int32Array, values: Float64Array): boolean {
  const n = indexes.length;
  let lo = Infinity;
  let hi = -Infinity;
  for (let k = 0; k < n; k++) {
    const v = values[indexes[k]];
    if (!Number.isInteger(v)) return false;
    if (v < lo) lo = v;
    if (v > hi) hi = v;
  }
  if (hi - lo >= COUNTING_RANGE_PER_VALUE * n) return false;
  const counts = new Int32Array(hi - lo + 2);
  for (let k = 0; k < n; k++) counts[values[indexes[k]] - lo + 1]++;
  for (let d = 1; d < counts.length; d++) counts[d] += counts[d - 1];
  const from = indexes.slice();
  for (let k = 0; k < n; k++) {
    const r = from[k];
    indexes[counts[values[r] - lo]++] = r;
  }
  return true;
}

/** A counting sort's counts stay within a few times the rows' own columns. */
const COUNTING_RANGE_PER_VALUE = 4;

/** The identity order 0..n-1. */
export function identityOrder(n: number): Int32Array {
  const order = new Int32Array(n);
  for (let r = 0; r < n; r++) order[r] = r;
  return order;
}

/** Small inputs: the engine's sort, ties by their place in `tieOrder`. */
function sortByComparison(indexes: Int32Array, values: Float64Array, tieOrder: Int32Array): void {
  const rank = new Int32Array(values.length);
  for (let k = 0; k < tieOrder.length; k++) rank[tieOrder[k]] = k;
  indexes.sort((a, b) => {
    const va = values[a];
    const vb = values[b];
    if (va < vb) return -1;
    if (va > vb) return 1;
    return rank[a] - rank[b];
  });
}

/**
 * Stable LSD radix sort of `indexes` (no NaN among their values) by value. Each double's bits
 * become an unsigned 64-bit key that orders as the numbers do: a negative number's bits all
 * flipped, a positive one's sign bit set (-0 taken as 0 first, so the two tie).
 */
function radixSort(indexes: Int32Array, values: Float64Array): void {
  const n = values.length;
  const bits = new Float64Array(n);
  const halves = new Uint32Array(bits.buffer);
  // byte order of the platform: which 32-bit half of a double holds its sign
  const high = new Uint32Array(new Float64Array([-0]).buffer)[1] === 0x80000000 ? 1 : 0;
  const low = 1 - high;
  for (let k = 0; k < indexes.length; k++) {
    const r = indexes[k];
    const v = values[r];
    bits[r] = v === 0 ? 0 : v;
    const hi = halves[2 * r + high];
    if (hi & 0x80000000) {
      halves[2 * r + high] = ~hi;
      halves[2 * r + low] = ~halves[2 * r + low];
    } else halves[2 * r + high] = hi | 0x80000000;
  }
  let from: Int32Array = indexes;
  let to: Int32Array = new Int32Array(indexes.length);
  const counts = new Int32Array(BUCKETS);
  for (let pass = 0; pass < 64 / DIGIT_BITS; pass++) {
    const half = pass < 32 / DIGIT_BITS ? low : high;
    const shift = (pass * DIGIT_BITS) % 32;
    counts.fill(0);
    for (let k = 0; k < from.length; k++)
      counts[(halves[2 * from[k] + half] >>> shift) & (BUCKETS - 1)]++;
    // every key has these 16 bits alike: the pass would keep the order as it is
    if (counts[(halves[2 * from[0] + half] >>> shift) & (BUCKETS - 1)] === from.length) continue;
    let at = 0;
    for (let d = 0; d < BUCKETS; d++) {
      const c = counts[d];
      counts[d] = at;
      at += c;
    }
    for (let k = 0; k < from.length; k++) {
      const r = from[k];
      to[counts[(halves[2 * r + half] >>> shift) & (BUCKETS - 1)]++] = r;
    }
    const done = to;
    to = from;
    from = done;
  }
  if (from !== indexes) indexes.set(from);
}
