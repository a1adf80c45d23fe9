import { describe, expect, it } from 'vitest';
import { packRows } from '../../../src-main/core/rows/packed-items';
import { buildStore } from '../../../src-main/core/store/build-store';
import { queryRows } from '../../../src-main/core/store/query-rows';
import type { RowFilter, SortKey } from '../../../src-main/core/api/trace-api';
import { row, span } from './hand-rows';

// Six hand-built rows; each expectation below is read off this table.
//  id  status  source  attempt reward  spans
//  10  ok      a       1       0.2     decode Req 1a2b, x*
//  11  ok      b       2       0.8     decode Req ff
//  12  failed  a       1       null    prefill
//  13  failed  b       null    -1      a.b 1
//  14  null    null    2       1       axb 1, decode Req
//  15  ok      a       1       {score: 0.5}
const table = () => {
  const r = (
    row_id: number,
    status: string | null,
    source: string | null,
    attempt: number | null,
    reward: unknown,
    names: string[],
  ) =>
    row({
      row_id,
      start: row_id,
      end: row_id + 1,
      status,
      source,
      attempt,
      reward: reward as never,
      items: names.map((name) => span({ name, start_ts: row_id })),
    });
  return buildStore({
    rows: packRows([
      r(10, 'ok', 'a', 1, 0.2, ['decode Req 1a2b', 'x*']),
      r(11, 'ok', 'b', 2, 0.8, ['decode Req ff']),
      r(12, 'failed', 'a', 1, null, ['prefill']),
      r(13, 'failed', 'b', null, -1, ['a.b 1']),
      r(14, null, null, 2, 1, ['axb 1', 'decode Req ']),
      r(15, 'ok', 'a', 1, { score: 0.5 }, []),
    ]),
  });
};
const q = (filter: RowFilter, sort: SortKey = 'row_id', descending?: boolean) =>
  Array.from(queryRows(table(), { sort, descending, filter }));

describe('queryRows filters', () => {
  it('by status and source, intersected; unknown names match nothing; empty lists filter nothing', () => {
    expect(q({ statuses: ['ok'] })).toEqual([10, 11, 15]);
    expect(q({ statuses: ['failed', 'ok'] })).toEqual([10, 11, 12, 13, 15]);
    expect(q({ sources: ['b'] })).toEqual([11, 13]);
    expect(q({ statuses: ['ok'], sources: ['a'] })).toEqual([10, 15]);
    expect(q({ statuses: ['nope'] })).toEqual([]);
    expect(q({ sources: ['nope'] })).toEqual([]);
    expect(q({ statuses: [], sources: [] })).toEqual([10, 11, 12, 13, 14, 15]);
  });

  it('by attempt', () => {
    expect(q({ attempts: [2] })).toEqual([11, 14]);
    expect(q({ attempts: [] })).toEqual([10, 11, 12, 13, 14, 15]);
  });

  it('by reward bounds, inclusive; rows without a reward fail any bound', () => {
    expect(q({ rewardMin: 0.5 })).toEqual([11, 14, 15]);
    expect(q({ rewardMax: 0.2 })).toEqual([10, 13]);
    expect(q({ rewardMin: 0.2, rewardMax: 0.8 })).toEqual([10, 11, 15]);
    expect(q({ rewardMin: -Infinity })).toEqual([10, 11, 13, 14, 15]);
  });

  it('by row ids, unknown ids ignored, kept in sort order', () => {
    expect(q({ rowIds: [15, 10, 99] })).toEqual([10, 15]);
    expect(q({ rowIds: [15, 10] }, 'start', true)).toEqual([15, 10]);
    expect(q({ rowIds: [] })).toEqual([]);
  });

  it('by span name, exact or as a pattern where each * is non-empty text', () => {
    expect(q({ spanName: 'prefill' })).toEqual([12]);
    expect(q({ spanName: 'missing' })).toEqual([]);
    expect(q({ spanName: 'ok' })).toEqual([]); // a status, no span's name
    // the first string a store interns (id 0) is a span name when rows have no status or source
    const bare = buildStore({
      rows: packRows([
        row({ row_id: 3, start: 0, end: 1, items: [span({ name: 'first', start_ts: 0 })] }),
      ]),
    });
    expect(bare.strings.indexOf('first')).toBe(0);
    expect(Array.from(queryRows(bare, { sort: 'row_id', filter: { spanName: 'first' } }))).toEqual([
      3,
    ]);
    expect(q({ spanName: 'decode Req *' })).toEqual([10, 11]); // "decode Req " has nothing for *
    expect(q({ spanName: 'Req *' })).toEqual([]); // anchored at the start
    expect(q({ spanName: 'decode *' })).toEqual([10, 11, 14]);
    expect(q({ spanName: 'a.b *' })).toEqual([13]); // "." is a dot, not any character
    expect(q({ spanName: 'x*' })).toEqual([10]); // a span really named "x*" is matched exactly
    expect(q({ spanName: '*' })).toEqual([10, 11, 12, 13, 14]);
  });

  it('by text, trimmed and case-blind, with other filters', () => {
    expect(q({ text: '  DECODE req ' })).toEqual([10, 11, 14]);
    expect(q({ text: 'decode req', statuses: ['ok'] })).toEqual([10, 11]);
    expect(q({ text: '   ' })).toEqual([10, 11, 12, 13, 14, 15]);
  });

  it('by text typed on, back and again on one store: each answer as a fresh search', () => {
    const store = table();
    const search = (text: string, sort: SortKey = 'row_id', descending?: boolean) =>
      Array.from(queryRows(store, { sort, descending, filter: { text } }));
    // typing on narrows the rows the last text matched; deleting back searches them all again
    expect(search('decode')).toEqual([10, 11, 14]);
    expect(search('decode req f')).toEqual([11]);
    expect(search('decode req')).toEqual([10, 11, 14]);
    expect(search('req 1')).toEqual([10]);
    // the same text in another order: the kept matches, sorted
    expect(search('decode', 'start', true)).toEqual([14, 11, 10]);
    expect(search('a')).toEqual([10, 12, 13, 14, 15]);
    expect(search('axb')).toEqual([14]);
    expect(search('prefill')).toEqual([12]);
  });

  it('an unknown sort key sorts by row id', () => {
    expect(q({}, 'no such key' as SortKey)).toEqual([10, 11, 12, 13, 14, 15]);
    expect(q({}, 'start', true)).toEqual([15, 14, 13, 12, 11, 10]);
  });
});

describe('sorted orders', () => {
  // rewards with ties and gaps; row ids out of the rows' order, so ties by id are visible
  //  index  0    1     2    3    4    5     6
  //  id     30   12    25   7    19   3     40
  //  reward 0.5  null  0.5  1    0.5  null  -1
  const store = () =>
    buildStore({
      rows: packRows(
        (
          [
            [30, 0.5],
            [12, null],
            [25, 0.5],
            [7, 1],
            [19, 0.5],
            [3, null],
            [40, -1],
          ] as const
        ).map(([row_id, reward]) =>
          row({ row_id, start: 0, end: 1, reward: reward as never, items: [] }),
        ),
      ),
    });

  it('ascending and descending: ties by row id both ways, rows without a value last (in store order)', () => {
    const s = store();
    const order = (descending: boolean) => Array.from(queryRows(s, { sort: 'reward', descending }));
    expect(order(false)).toEqual([40, 19, 25, 30, 7, 12, 3]);
    expect(order(true)).toEqual([7, 19, 25, 30, 40, 12, 3]);
    // asked the other way round on a fresh store: the same orders
    const t = store();
    expect(Array.from(queryRows(t, { sort: 'reward', descending: true }))).toEqual(order(true));
    expect(Array.from(queryRows(t, { sort: 'reward' }))).toEqual(order(false));
  });
});
