import { describe, expect, it } from 'vitest';
import { sortItems } from '../../../src-main/core/rows/build-rows';
import { buildPdView } from '../../../src-main/core/rows/pd-lanes';
import { comparePyStr } from '../../../src-main/core/rows/python-values';
import type { RowItem } from '../../../src-main/core/model/row';
import { point, row, span } from './hand-rows';

/** slime's order as it was written before: differences of times, the engine's stable sort */
function bySlimeOrder(items: RowItem[]): RowItem[] {
  const start = (i: RowItem) => (i.type === 'span' ? i.start_ts : i.ts);
  const end = (i: RowItem) => (i.type === 'span' ? i.display_end_ts : i.ts);
  return [...items].sort(
    (a, b) =>
      a.lane - b.lane || start(a) - start(b) || end(a) - end(b) || comparePyStr(a.name, b.name),
  );
}

/** a seeded generator (the same lists every run) */
function random(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

/**
 * items with many ties (few lanes, times and names) and infinite times; `withNaN`: NaN times
 * too, which no order ranks (each sort algorithm leaves them somewhere else)
 */
function items(n: number, rand: () => number, withNaN = false): RowItem[] {
  const times = [0, 0.5, 1, 1.5, Infinity, 1760000000.123456, ...(withNaN ? [NaN] : [])];
  const pick = <T>(list: T[]) => list[Math.floor(rand() * list.length)];
  return Array.from({ length: n }, (_, k) => {
    const lane = Math.floor(rand() * 3);
    const name = pick(['a', 'b', 'sglang_generate', 'é']);
    const item =
      rand() < 0.7
        ? span(name, pick(times), pick(times), { lane })
        : point(name, pick(times), { lane });
    // which of the equal items is which: a stable sort keeps them in this order
    item.span_id = `#${k}`;
    return item;
  });
}

describe('sortItems: slime’s (lane, start, end, name) order, stable, in place', () => {
  it('equals the stable sort by time differences, for rows short and long', () => {
    const rand = random(7);
    for (const n of [0, 1, 2, 5, 12, 47, 48, 49, 60, 200]) {
      for (let round = 0; round < 20; round++) {
        const list = items(n, rand);
        const expected = bySlimeOrder(list).map((i) => i.span_id);
        const sorted = sortItems(list);
        expect(sorted).toBe(list);
        expect(sorted.map((i) => i.span_id)).toEqual(expected);
      }
    }
  });

  it('NaN times: every item still there once, the rest in order around them', () => {
    const rand = random(11);
    for (const n of [10, 100]) {
      const list = items(n, rand, true);
      const ids = list.map((i) => i.span_id).sort();
      expect(
        sortItems(list)
          .map((i) => i.span_id)
          .sort(),
      ).toEqual(ids);
    }
  });

  it('a long row already in order is given back as it is', () => {
    const list = bySlimeOrder(items(120, random(3)));
    const ids = list.map((i) => i.span_id);
    expect(sortItems(list).map((i) => i.span_id)).toEqual(ids);
  });
});

describe('buildPdView lanes', () => {
  it('a row of contiguous lanes without PD spans keeps its lanes and order; the given row is not changed', () => {
    const given = row(0, [
      span('generate_and_rm', 0, 4, { id: 'r', lane: 0 }),
      span('sglang_generate', 0.5, 3, { id: 'g', parent: 'r', lane: 1 }),
      point('tool_output', 3.5, { parent: 'r', lane: 1 }),
      span('reward_model', 3, 4, { parent: 'r', lane: 1 }),
    ]);
    const before = JSON.stringify(given);
    const view = buildPdView(given);
    expect(view.items.map((i) => [i.name, i.lane])).toEqual([
      ['generate_and_rm', 0],
      ['sglang_generate', 1],
      ['reward_model', 1],
      ['tool_output', 1],
    ]);
    expect(view.lane_count).toBe(2);
    expect(JSON.stringify(given)).toBe(before);
  });

  it('lanes left empty are closed up, in order, also when a lane number is past the item count', () => {
    const view = buildPdView(
      row(0, [
        span('a', 0, 1, { lane: 0 }),
        span('b', 0, 1, { lane: 7 }),
        point('c', 0.5, { lane: 3 }),
      ]),
    );
    expect(view.items.map((i) => [i.name, i.lane])).toEqual([
      ['a', 0],
      ['c', 1],
      ['b', 2],
    ]);
  });
});
