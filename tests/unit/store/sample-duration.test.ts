import { describe, expect, it } from 'vitest';
import { buildSampleDurations } from '../../../src-main/core/store/sample-duration';
import { point, row, span } from './hand-rows';

describe('each sample’s own duration', () => {
  it('leaves out spans another row of the same group has, name, start and end alike', () => {
    const shared = () => span({ name: 'group', start_ts: 0, end_ts: 100 });
    const rows = [
      row({
        row_id: 0,
        start: 0,
        end: 100,
        group_index: 1,
        items: [shared(), span({ name: 'gen', start_ts: 10, end_ts: 30 })],
      }),
      row({
        row_id: 1,
        start: 0,
        end: 100,
        group_index: 1,
        items: [
          shared(),
          span({ name: 'gen', start_ts: 10, end_ts: 50 }),
          point({ name: 'p', ts: 60 }),
        ],
      }),
      // same span, other group: its own
      row({ row_id: 2, start: 0, end: 100, group_index: 2, items: [shared()] }),
      // no group: nothing is shared
      row({ row_id: 3, start: 0, end: 100, group_index: null, items: [shared()] }),
      row({ row_id: 4, start: 0, end: 100, items: [shared()] }),
    ];
    // by hand: row 0 own 10..30, row 1 own 10..60 (the event counts), rows 2-4 the whole span
    expect(Array.from(buildSampleDurations(rows))).toEqual([20, 50, 100, 100, 100]);
  });

  it('a row with only shared spans keeps its whole extent; one row’s own repeats are not shared', () => {
    const twin = () => span({ name: 'g', start_ts: 5, end_ts: 9 });
    const rows = [
      row({ row_id: 0, start: 1, end: 12, group_index: 0, items: [twin()] }),
      row({ row_id: 1, start: 2, end: 10, group_index: 0, items: [twin()] }),
      row({ row_id: 2, start: 0, end: 40, group_index: 5, items: [twin(), twin()] }),
      row({ row_id: 3, start: 3, end: 4, group_index: 6, items: [] }),
    ];
    expect(Array.from(buildSampleDurations(rows))).toEqual([11, 8, 4, 1]);
  });

  it('a single own instant gives a zero duration; an event is never shared', () => {
    const rows = [
      row({ row_id: 0, start: 0, end: 9, items: [point({ name: 'p', ts: 5 })] }),
      // both rows of group 1 have a zero-length span "z" at 70; row 1's event "z" at 70 is its own
      row({
        row_id: 1,
        start: 60,
        end: 80,
        group_index: 1,
        items: [
          span({ name: 'z', start_ts: 70, end_ts: 70 }),
          point({ name: 'z', ts: 70 }),
          point({ name: 'q', ts: 75 }),
        ],
      }),
      row({
        row_id: 2,
        start: 60,
        end: 80,
        group_index: 1,
        items: [span({ name: 'z', start_ts: 70, end_ts: 70 })],
      }),
    ];
    expect(Array.from(buildSampleDurations(rows))).toEqual([0, 5, 20]);
  });
});
