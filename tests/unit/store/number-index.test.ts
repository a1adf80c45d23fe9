import { describe, expect, it } from 'vitest';
import { NumberIndex } from '../../../src-main/core/store/number-index';

describe("NumberIndex (a row's spans by their id's number)", () => {
  it('answers as a Map does, row after row, for runs, repeats and colliding keys', () => {
    const index = new NumberIndex();
    let seed = 7;
    const next = () => (seed = (Math.imul(seed, 1103515245) + 12345) >>> 0);
    for (const count of [0, 1, 5, 1000, 40_000, 3]) {
      index.reset(count);
      const map = new Map<number, number>();
      for (let n = 0; n < count; n++) {
        // counted ids in a run from 2^30, some far apart, some set twice (the last one wins)
        const key = n % 3 === 0 ? 2 ** 30 + n : n % 3 === 1 ? next() >>> 1 : 2 ** 30 + (n >> 1);
        index.set(key, n);
        map.set(key, n);
      }
      for (const [key, value] of map) expect(index.get(key)).toBe(value);
      // keys not set (and those of the row before) are not there; below 0 never is
      for (let k = 0; k < 200; k++) {
        const key = next() >>> 1;
        expect(index.get(key)).toBe(map.get(key) ?? -1);
      }
      expect(index.get(-1)).toBe(-1);
      expect(index.get(-2)).toBe(-1);
    }
  });

  it('answers as a Map does for keys close together, given their bounds (a direct table)', () => {
    const index = new NumberIndex();
    let seed = 11;
    const next = () => (seed = (Math.imul(seed, 1103515245) + 12345) >>> 0);
    for (const [count, spread] of [
      [1, 1],
      [1000, 1],
      [40_000, 3],
      [5, 2],
      [1000, 10],
    ]) {
      // counted ids from a base, in no order, some set twice: within `spread` times the count
      const base = 2 ** 29 + (next() % 1000);
      const keys = Array.from({ length: count }, () => base + (next() % (spread * count)));
      const min = Math.min(...keys);
      const max = Math.max(...keys);
      index.reset(count, min, max);
      const map = new Map<number, number>();
      keys.forEach((key, n) => {
        index.set(key, n);
        map.set(key, n);
      });
      for (const [key, value] of map) expect(index.get(key)).toBe(value);
      // every key from below the least to past the most: those not set are not there
      for (let key = min - 3; key <= max + 3; key++)
        expect(index.get(key)).toBe(map.get(key) ?? -1);
      expect(index.get(-1)).toBe(-1);
    }
  });
});
