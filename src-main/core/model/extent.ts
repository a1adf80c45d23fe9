/**
 * Smallest / largest of f(item) over a list, by a loop: Math.min(...list) spreads its
 * arguments on the stack and throws for lists of more than ~100k items (big rollouts).
 */
export function minOf<T>(items: readonly T[], f: (item: T) => number): number {
  let min = Infinity;
  for (const item of items) {
    const v = f(item);
    if (v < min) min = v;
  }
  return min;
}

export function maxOf<T>(items: readonly T[], f: (item: T) => number): number {
  let max = -Infinity;
  for (const item of items) {
    const v = f(item);
    if (v > max) max = v;
  }
  return max;
}
