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
  const endOf = (i: number) => intervals[i].end ?? Infinity;
  const order = Array.from({ length: n }, (_, i) => i).sort(
    (a, b) => intervals[a].start - intervals[b].start || endOf(b) - endOf(a) || a - b,
  );
  const depth = new Int32Array(n);
  const parent = new Int32Array(n).fill(-1);
  const stack: number[] = [];
  for (const i of order) {
    const start = intervals[i].start;
    while (stack.length > 0) {
      const top = stack[stack.length - 1];
      const inside =
        (start >= intervals[top].start && start < endOf(top)) ||
        (start === intervals[top].start && endOf(i) <= endOf(top));
      if (inside) break;
      stack.pop();
    }
    if (stack.length > 0) {
      parent[i] = stack[stack.length - 1];
      depth[i] = stack.length;
    }
    stack.push(i);
  }
  return { depth, parent };
}
