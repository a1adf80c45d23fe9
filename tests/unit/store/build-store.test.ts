import { describe, expect, it } from 'vitest';
import { packRows } from '../../../src-main/core/rows/packed-items';
import { buildStore, ITEM_FLAG, ITEM_KIND } from '../../../src-main/core/store/build-store';
import { point, row, span } from './hand-rows';

// Two hand-built rows; the file starts at 50 (row 2's start), so column times are ts - 50.
const rows = () => [
  row({
    row_id: 5,
    start: 60,
    end: 70,
    sample_index: ' 4 ',
    group_index: ' ',
    attempt: true,
    reward: true,
    status: 'ok',
    source: 'a',
    lane_count: 2,
    open_span_count: 1,
    items: [
      span({
        name: 'gen',
        start_ts: 60,
        end_ts: 65,
        span_id: 's',
        error: true,
        pd: { role: 'prefill', phases: [], parentDurationSec: 1 },
      }),
      span({
        name: 'gen',
        start_ts: 61,
        end_ts: null,
        display_end_ts: 66,
        parent_span_id: 's',
        lane: 1,
        depth: 1,
        pd: { role: 'decode', phases: [], parentDurationSec: 1 },
      }),
      point({
        name: 'ev',
        ts: 62,
        parent_span_id: 'p' /* an orphan end's id: no span */,
        missing_parent: true,
      }),
      point({ name: 'end', ts: 63, span_id: 'p' }, 'orphan_end'),
    ],
  }),
  row({
    row_id: 2,
    start: 50,
    end: 80,
    sample_index: 7,
    group_index: 3,
    attempt: '2',
    reward: { score: 0.25 },
    status: 'ok',
    source: null,
    items: [point({ name: 'ev', ts: 55 })],
  }),
];

describe('buildStore columns', () => {
  it('puts each item in typed columns relative to the file start, with kind, flags and parent', () => {
    const s = buildStore({ rows: packRows(rows()) });
    expect([s.globalStartSec, s.globalEndSec, s.rowCount, s.itemCount]).toEqual([50, 80, 2, 5]);
    expect(Array.from(s.rowItemOffset)).toEqual([0, 4, 5]);
    expect(Array.from(s.itemStart)).toEqual([10, 11, 12, 13, 5]);
    expect(Array.from(s.itemEnd)).toEqual([15, 16, 12, 13, 5]);
    expect(Array.from(s.itemRow)).toEqual([0, 0, 0, 0, 1]);
    expect(Array.from(s.itemLane)).toEqual([0, 1, 0, 0, 0]);
    expect(Array.from(s.itemDepth)).toEqual([0, 1, 0, 0, 0]);
    expect(Array.from(s.itemKind)).toEqual([
      ITEM_KIND.span,
      ITEM_KIND.span,
      ITEM_KIND.event,
      ITEM_KIND.orphan,
      ITEM_KIND.event,
    ]);
    expect(Array.from(s.itemFlags)).toEqual([
      ITEM_FLAG.error | ITEM_FLAG.pdPrefill,
      ITEM_FLAG.ongoing | ITEM_FLAG.pdDecode,
      ITEM_FLAG.missingParent,
      ITEM_FLAG.orphan,
      0,
    ]);
    expect(ITEM_FLAG).toEqual({
      ongoing: 1,
      orphan: 2,
      error: 4,
      pdPrefill: 8,
      pdDecode: 16,
      missingParent: 32,
    });
    expect(s.strings).toEqual(['ok', 'a', 'gen', 'ev', 'end']);
    expect(ITEM_KIND).toEqual({ span: 0, event: 1, orphan: 2 });
    expect(Array.from(s.itemParent)).toEqual([-1, 0, -1, -1, -1]);
    expect(Array.from(s.itemName, (id) => s.strings[id])).toEqual([
      'gen',
      'gen',
      'ev',
      'end',
      'ev',
    ]);
    expect(s.strings.filter((x) => x === 'ev')).toHaveLength(1); // interned once
  });

  it('puts each row in typed columns: ids, times, counts, numbers read from strings and dicts', () => {
    const s = buildStore({ rows: packRows(rows()) });
    expect(Array.from(s.rowId)).toEqual([5, 2]);
    expect([...s.rowIndexById]).toEqual([
      [5, 0],
      [2, 1],
    ]);
    expect(Array.from(s.rowStart)).toEqual([10, 0]);
    expect(Array.from(s.rowEnd)).toEqual([20, 30]);
    expect(Array.from(s.rowLaneCount)).toEqual([2, 1]);
    expect(Array.from(s.rowOpenCount)).toEqual([1, 0]);
    expect(Array.from(s.rowSampleIndex)).toEqual([4, 7]); // " 4 " is a number
    expect(Array.from(s.rowGroup)).toEqual([NaN, 3]); // blank text is not
    expect(Array.from(s.rowAttempt)).toEqual([NaN, 2]); // true is not a number
    expect(Array.from(s.rowReward)).toEqual([1, 0.25]); // true counts 1, a dict its score
    expect(s.strings[s.rowStatus[0]]).toBe('ok');
    expect(s.rowSource[1]).toBe(-1);
  });

  it('indexes rows by span name, status and source, each row once', () => {
    const s = buildStore({ rows: packRows(rows()) });
    const index = (map: ReadonlyMap<number, Int32Array>) =>
      Object.fromEntries(
        [...map].map(([id, list]) => [id < 0 ? 'null' : s.strings[id], Array.from(list)]),
      );
    expect(index(s.rowsBySpanName)).toEqual({ gen: [0], ev: [0, 1], end: [0] });
    expect(index(s.rowsByStatus)).toEqual({ ok: [0, 1] });
    expect(index(s.rowsBySource)).toEqual({ a: [0], null: [1] });
    expect(s.rowsBySpanName.get(s.strings.indexOf('ev'))).toBeInstanceOf(Int32Array);
  });

  it('an empty file starts and ends at 0', () => {
    const s = buildStore({ rows: packRows([]) });
    expect([s.globalStartSec, s.globalEndSec, s.itemCount]).toEqual([0, 0, 0]);
    expect(Array.from(s.rowItemOffset)).toEqual([0]);
  });
});
