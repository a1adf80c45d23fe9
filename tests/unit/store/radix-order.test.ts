import { describe, expect, it } from 'vitest';
import { ascendingIndexes, identityOrder } from '../../../src-main/core/store/radix-order';

/** the order as the store made it before: the engine's sort with a comparator */
function byComparison(values: Float64Array, tieOrder: Int32Array): Int32Array {
  const rank = new Int32Array(values.length);
  for (let k = 0; k < tieOrder.length; k++) rank[tieOrder[k]] = k;
  return identityOrder(values.length).sort((a, b) => {
    const va = values[a];
    const vb = values[b];
    if (va !== va || vb !== vb) return va !== va ? (vb !== vb ? a - b : 1) : -1;
    if (va < vb) return -1;
    if (va > vb) return 1;
    return rank[a] - rank[b];
  });
}

/** a seeded generator (the same columns every run) */
function random(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

function shuffled(n: number, rand: () => number): Int32Array {
  const order = identityOrder(n);
  for (let k = n - 1; k > 0; k--) {
    const j = Math.floor(rand() * (k + 1));
    [order[k], order[j]] = [order[j], order[k]];
  }
  return order;
}

/** the kinds of columns the store sorts: times, durations, rewards, small whole numbers */
const COLUMNS: Record<string, (rand: () => number) => number> = {
  'times of day': (rand) => 1_760_000_000 + rand() * 7200,
  'durations with ties': (rand) => Math.floor(rand() * 50) / 8,
  rewards: (rand) => [-1, -0, 0, 0.5, 1, NaN][Math.floor(rand() * 6)],
  'small whole numbers': (rand) => Math.floor(rand() * 5),
  'every kind of double': (rand) =>
    [
      NaN,
      -Infinity,
      Infinity,
      -0,
      0,
      Number.MIN_VALUE,
      -Number.MIN_VALUE,
      Number.MAX_VALUE,
      -Number.MAX_VALUE,
      1e-300,
      -1e300,
      (rand() - 0.5) * 1e6,
      2 ** 53,
      -(2 ** 31),
    ][Math.floor(rand() * 14)],
};

describe('ascendingIndexes', () => {
  for (const [name, value] of Object.entries(COLUMNS)) {
    for (const n of [0, 1, 7, 511, 512, 5000, 40_000]) {
      it(`orders ${n} ${name} as the comparison sort does (ties by the tie order, NaN last)`, () => {
        const rand = random(n * 31 + name.length);
        const values = Float64Array.from({ length: n }, () => value(rand));
        for (const tieOrder of [identityOrder(n), shuffled(n, rand)]) {
          expect(Array.from(ascendingIndexes(values, tieOrder))).toEqual(
            Array.from(byComparison(values, tieOrder)),
          );
        }
      });
    }
  }

  // the shortcuts before the radix passes: a column already in order, a column of whole
  // numbers counted into place (within a range of 4 per value), and just past each of them
  const SHORTCUTS: Record<string, (r: number, n: number, rand: () => number) => number> = {
    'ids in order': (r) => r,
    'times in order, ties and all': (r) => 1_760_000_000 + Math.floor(r / 3) * 0.25,
    'in order but the last': (r, n) => (r === n - 1 ? -1 : r),
    'in order with NaN among them': (r) => (r % 97 === 5 ? NaN : r * 2),
    'whole numbers over 4 per value': (r, n, rand) => Math.floor(rand() * 4 * n) - 2 * n,
    'whole numbers just past 4 per value': (r, n, rand) =>
      r === 0 ? 0 : r === 1 ? 4 * n : Math.floor(rand() * 4 * n),
    'whole numbers and one fraction': (r, _n, rand) => (r === 7 ? 2.5 : Math.floor(rand() * 9)),
    'negative whole numbers and -0': (r, _n, rand) => (r % 5 === 0 ? -0 : -Math.floor(rand() * 6)),
    'whole numbers far apart': (r, _n, rand) => Math.floor(rand() * 3) * 2 ** 40,
  };
  for (const [name, value] of Object.entries(SHORTCUTS)) {
    for (const n of [511, 512, 5000, 40_000]) {
      it(`orders ${n} ${name} as the comparison sort does`, () => {
        const rand = random(n * 17 + name.length);
        const values = Float64Array.from({ length: n }, (_, r) => value(r, n, rand));
        for (const tieOrder of [identityOrder(n), shuffled(n, rand)]) {
          expect(Array.from(ascendingIndexes(values, tieOrder))).toEqual(
            Array.from(byComparison(values, tieOrder)),
          );
        }
      });
    }
  }

  it('ties -0 with 0 and keeps NaN rows in index order whatever the tie order', () => {
    const values = Float64Array.from({ length: 2000 }, (_, r) => [NaN, 0, -0, 3][r % 4]);
    const tieOrder = identityOrder(2000).reverse();
    const order = Array.from(ascendingIndexes(values, tieOrder));
    const zeros = order.slice(0, 1000);
    expect(zeros).toEqual(zeros.slice().sort((a, b) => b - a));
    expect(order.slice(1500)).toEqual(Array.from({ length: 500 }, (_, k) => 4 * k));
  });
});
