import { describe, expect, it } from 'vitest';
import { lastAtOrBefore } from '../../../src-main/core/model/sorted-search';

/** the same answer by a scan, to hold the search to */
function byScan(sorted: ArrayLike<number>, value: number): number {
  let found = -1;
  for (let i = 0; i < sorted.length; i++) if (sorted[i] <= value) found = i;
  return found;
}

describe('lastAtOrBefore', () => {
  it('finds the last value at or before, ties and gaps included, as a scan does', () => {
    const sorted = [0, 0, 3, 3, 3, 7, 10, 10, 42];
    for (let value = -2; value <= 45; value += 0.5)
      expect(lastAtOrBefore(sorted, value)).toBe(byScan(sorted, value));
  });

  it('says -1 before the first value and for no values, and reads typed arrays', () => {
    expect(lastAtOrBefore([5, 6], 4.9)).toBe(-1);
    expect(lastAtOrBefore([], 1)).toBe(-1);
    const starts = Float64Array.from([0, 65536, 131072]);
    expect(lastAtOrBefore(starts, 65535)).toBe(0);
    expect(lastAtOrBefore(starts, 65536)).toBe(1);
    expect(lastAtOrBefore(starts, Infinity)).toBe(2);
  });
});
