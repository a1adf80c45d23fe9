/** An interval to nest: `end` null when it never ended (it reaches past everything). */
export interface NestInterval {
  start: number;
  end: number | null;
}

/**
 * Depth and parent of intervals on one track by time containment (a thread's slices whose
 * nesting is not written down, as a profiler's complete events): in start order, longer first
 * at one start, an interval lies inside the innermost open one that it starts within. One that
 * starts inside and ends after its parent (a writer's rounding) still counts as inside.
 * `parent[i]` is an index into `intervals`, or -1.
 */
export function nestByTime(intervals: readonly NestInterval[]): {
  depth: Int32Array;
  parent: Int32Array;
} {
  const n = intervals.length;
  const starts = new Float64Array(n);
  const ends = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    starts[i] = intervals[i].start;
    ends[i] = intervals[i].end ?? Infinity;
  }
  return nestColumns(starts, ends);
}

/**
 * nestByTime of the first `n` intervals given as columns (`ends[i]` Infinity: never ended), for
 * a caller that has its times at hand: no object per interval (a GPU rank's 150k slices each
 * had one). The columns may be longer than `n` (a caller's buffers kept from track to track).
 */
export function nestColumns(
  starts: Float64Array,
  ends: Float64Array,
  n = starts.length,
): { depth: Int32Array; parent: Int32Array } {
  const depth = new Int32Array(n);
  const parent = new Int32Array(n).fill(-1);
  const order = nestOrder(starts, ends, n);
  // the stack of open intervals in a buffer kept from call to call: a typed array more per
  // call was 300,000 more for 300,000 tiny processes (their peak a fifth higher)
  if (stackBuffer.length < n) stackBuffer = new Int32Array(n);
  const stack = stackBuffer;
  let top = 0;
  for (let k = 0; k < n; k++) {
    const i = order === null ? k : order[k];
    const start = starts[i];
    while (top > 0) {
      const t = stack[top - 1];
      const inside =
        (start >= starts[t] && start < ends[t]) || (start === starts[t] && ends[i] <= ends[t]);
      if (inside) break;
      top--;
    }
    if (top > 0) {
      parent[i] = stack[top - 1];
      depth[i] = top;
    }
    stack[top++] = i;
  }
  return { depth, parent };
}

let stackBuffer = new Int32Array(64);

/**
 * The intervals by start, longer first at one start, then by index; null when they are in that
 * order already (a thread's slices nearly always are: a sort with a comparator of a GPU rank's
 * slices was most of its nesting).
 */
function nestOrder(starts: Float64Array, ends: Float64Array, n: number): Int32Array | null {
  let sorted = true;
  for (let k = 1; k < n && sorted; k++) {
    sorted = starts[k - 1] < starts[k] || (starts[k - 1] === starts[k] && ends[k - 1] >= ends[k]);
  }
  if (sorted) return null;
  return Int32Array.from({ length: n }, (_, i) => i).sort(
    (a, b) => starts[a] - starts[b] || ends[b] - ends[a] || a - b,
  );
}
