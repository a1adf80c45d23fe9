import { describe, expect, it } from 'vitest';
import {
  coveredSegments,
  isGroupWide,
  itemEnd,
  itemStart,
  sampleWorkEnd,
  WorkEnds,
} from '../../../src-main/core/rows/sample-work';
import { point, packedRow as row, span } from './hand-rows';

describe('isGroupWide', () => {
  it('is true only for the span generate_and_rm_group (TRACE_MODEL 2)', () => {
    expect(isGroupWide(span('generate_and_rm_group', 0, 1))).toBe(true);
    expect(isGroupWide(point('generate_and_rm_group', 0))).toBe(false);
    expect(isGroupWide(span('generate_and_rm', 0, 1))).toBe(false);
  });
});

describe('itemStart / itemEnd', () => {
  it('a span runs from its start to its display end (an open span has no end_ts)', () => {
    const open = span('open', 2, 7, { endTs: null });
    expect(itemStart(open)).toBe(2);
    expect(itemEnd(open)).toBe(7);
  });

  it('a point starts and ends at its ts', () => {
    expect(itemStart(point('p', 4))).toBe(4);
    expect(itemEnd(point('p', 4))).toBe(4);
  });
});

describe('coveredSegments', () => {
  it('merges overlapping and touching items into disjoint intervals in time order', () => {
    const r = row(0, [
      span('late', 20, 25),
      span('outer', 0, 10),
      span('inner', 2, 3), // inside outer: outer's end stays 10
      span('touching', 10, 12), // starts where outer ends: merged
      point('alone', 15),
    ]);
    expect(coveredSegments(r)).toEqual([
      [0, 12],
      [15, 15],
      [20, 25],
    ]);
  });

  it('keeps only the items the filter keeps', () => {
    const r = row(0, [span('a', 0, 5), span('b', 8, 9), point('c', 4)]);
    expect(coveredSegments(r, (item) => item.name !== 'b')).toEqual([[0, 5]]);
  });

  it('a row without items covers nothing', () => {
    expect(coveredSegments(row(0, [], { start: 0, end: 1 }))).toEqual([]);
  });
});

describe('sampleWorkEnd', () => {
  it('is the last end of the row’s items, group-wide spans apart', () => {
    const r = row(0, [span('generate_and_rm_group', 0, 50), span('gen', 1, 8), point('p', 9)]);
    expect(sampleWorkEnd(r)).toBe(9);
  });

  it('counts only items ending at or after fromSec', () => {
    const r = row(0, [span('a', 0, 5), span('b', 1, 3)], { end: 40 });
    expect(sampleWorkEnd(r)).toBe(5);
    expect(sampleWorkEnd(r, 5)).toBe(5);
    // none ends at or after 6: the row's end
    expect(sampleWorkEnd(r, 6)).toBe(40);
  });

  it('is the row’s end when the row holds only group-wide spans', () => {
    const r = row(0, [span('generate_and_rm_group', 0, 30)], { end: 31 });
    expect(sampleWorkEnd(r)).toBe(31);
  });
});

describe('WorkEnds (each row walked once for the rollout figures)', () => {
  it('answers sampleWorkEnd for every bound: before, between and after its items’ ends', () => {
    const rows = [
      row(0, [
        span('generate_and_rm_group', 0, 100),
        span('sglang_generate', 5, 30),
        point('tool', 50),
      ]),
      // only a group-wide span: its row's end
      row(1, [span('generate_and_rm_group', 0, 100)]),
      // a span drawn to before its own start (a malformed end): the earliest end is before the
      // row's start, so a bound at the row's start does leave it out
      row(2, [span('sglang_generate', 20, 10), span('tool_call', 15, 25)], { start: 15 }),
      row(3, []),
      // its one item ends before the row starts: bounded at the row's start, no item is left
      // and the row's end answers
      row(4, [span('sglang_generate', 20, 10)], { start: 20, end: 40 }),
    ];
    const ends = new WorkEnds(rows);
    for (const from of [-Infinity, 0, 5, 10, 12, 15, 25, 30, 40, 50, 60, 200])
      rows.forEach((r, k) =>
        expect(ends.of(k, from), `row ${k} from ${from}`).toBe(sampleWorkEnd(r, from)),
      );
    expect([ends.of(0), ends.of(1), ends.of(2, 15), ends.of(4, 20)]).toEqual([50, 100, 25, 40]);
  });
});
