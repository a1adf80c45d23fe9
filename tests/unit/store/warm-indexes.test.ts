import { resolve } from 'node:path';
import { packRows } from '../../../src-main/core/rows/packed-items';
import { describe, expect, it } from 'vitest';
import { sampleDurations } from '../../../src-main/core/store/sample-duration';
import { buildStore } from '../../../src-main/core/store/build-store';
import { queryRows, sortedRows, STORE_SORT_KEYS } from '../../../src-main/core/store/query-rows';
import { searchTextReady, searchTrigramsReady } from '../../../src-main/core/store/search-text';
import { warmIndexes } from '../../../src-main/core/store/warm-indexes';
import type { Row } from '../../../src-main/core/model/row';
import { SLIME, readJson } from '../../support/fixtures';

// Issue 18: the text index and every sort order are built in the worker right after opening,
// a step at a time, and kept; queries then only pick rows out of them.
const rowsOf = () =>
  readJson<{ rows: Row[] }>(resolve(SLIME, 'rollout_agentic.pt.expected.json')).rows;

describe('indexes warmed after opening', () => {
  it('builds the text index and each order in short steps, then keeps them', () => {
    const store = buildStore({ rows: packRows(rowsOf()) });
    const steps = warmIndexes(store);
    expect(searchTextReady(store)).toBe(false);
    let count = 0;
    while (!steps.next().done) count++;
    // three early orders, the filters' three indexes, one step per 500 rows of text and per
    // 2,000 rows of their runs of three bytes, then both directions of every key
    expect(count).toBe(
      6 +
        Math.ceil(store.rowCount / 500) +
        Math.ceil(store.rowCount / 2000) +
        2 * STORE_SORT_KEYS.length,
    );
    expect(searchTextReady(store)).toBe(true);
    expect(searchTrigramsReady(store)).toBe(true);
    const order = sortedRows(store, 'duration', true);
    expect(sortedRows(store, 'duration', true)).toBe(order);
  });

  it('answers exactly as a store queried cold', () => {
    const warm = buildStore({ rows: packRows(rowsOf()) });
    const cold = buildStore({ rows: packRows(rowsOf()) });
    for (const step = warmIndexes(warm); !step.next().done;);
    // "python": the tool_call spans' start attr {"tool": "python"} in rollout_agentic
    for (const query of [
      { sort: 'duration' as const, descending: true, filter: { text: 'python' } },
      { sort: 'start' as const, filter: { statuses: ['completed'] } },
      { sort: 'reward' as const, descending: true },
    ]) {
      const got = Array.from(queryRows(warm, query));
      expect(got).toEqual(Array.from(queryRows(cold, query)));
    }
    // the rows of rollout_agentic.pt.expected.json whose tool_call says "python"
    expect(Array.from(queryRows(warm, { sort: 'row_id', filter: { text: 'python' } }))).toEqual([
      0, 2, 3, 5, 6, 9, 10, 13, 14,
    ]);
  });
});

describe('which orders warming builds', () => {
  // A store's orders are kept per store object; its typed columns can still be written. After
  // warming, every column is set to tie and the row ids rotated by 7: an order warming built still
  // answers as the real rows sort, one it left out would be sorted now, by the rotated ids.
  const scramble = (store: ReturnType<typeof buildStore>) => {
    for (const column of [
      store.rowStart,
      store.rowEnd,
      sampleDurations(store),
      store.rowReward,
      store.rowSampleIndex,
      store.rowGroup,
    ])
      column.fill(0);
    store.rowLaneCount.fill(0);
    store.rowOpenCount.fill(0);
    store.rowId.forEach((_, r) => (store.rowId[r] = (r + 7) % store.rowCount));
  };
  // rows by their rotated ids: n - 7, ..., n - 1, 0, ..., n - 8
  const scrambledOrder = (n: number) => Array.from({ length: n }, (_, k) => (k + n - 7) % n);
  const coldOrder = (sort: (typeof STORE_SORT_KEYS)[number], descending: boolean) =>
    Array.from(sortedRows(buildStore({ rows: packRows(rowsOf()) }), sort, descending));

  it('sorts by row id first, then by duration both ways, then every key both ways', () => {
    const first = buildStore({ rows: packRows(rowsOf()) });
    const steps = warmIndexes(first);
    steps.next();
    scramble(first);
    expect(Array.from(sortedRows(first, 'row_id', false))).toEqual(coldOrder('row_id', false));
    expect(coldOrder('row_id', false)).not.toEqual(scrambledOrder(first.rowCount));

    const second = buildStore({ rows: packRows(rowsOf()) });
    const steps2 = warmIndexes(second);
    // a step per order: by duration ascending, then descending from it
    for (let k = 0; k < 3; k++) steps2.next();
    scramble(second);
    expect(Array.from(sortedRows(second, 'duration', true))).toEqual(coldOrder('duration', true));
    expect(coldOrder('duration', true)).not.toEqual(scrambledOrder(second.rowCount));

    // the next steps make the filters' indexes, one each (span names, then statuses): rows by
    // status answer as before the status column was scrambled; a store not warmed that far
    // makes them from the scrambled column
    const statusRows = (store: ReturnType<typeof buildStore>) =>
      Array.from(queryRows(store, { sort: 'row_id', filter: { statuses: ['completed'] } }));
    const third = buildStore({ rows: packRows(rowsOf()) });
    const cold = statusRows(buildStore({ rows: packRows(rowsOf()) }));
    expect(cold.length).toBeGreaterThan(0);
    const steps3 = warmIndexes(third);
    for (let k = 0; k < 5; k++) steps3.next();
    third.rowStatus.fill(-1);
    expect(statusRows(third)).toEqual(cold);
    second.rowStatus.fill(-1);
    expect(statusRows(second)).toEqual([]);

    const all = buildStore({ rows: packRows(rowsOf()) });
    for (const step = warmIndexes(all); !step.next().done;);
    scramble(all);
    for (const sort of STORE_SORT_KEYS) {
      for (const descending of [false, true]) {
        const cold = coldOrder(sort, descending);
        expect(cold, `${sort} ${descending}`).not.toEqual(scrambledOrder(all.rowCount));
        expect(Array.from(sortedRows(all, sort, descending)), `${sort} ${descending}`).toEqual(
          cold,
        );
      }
    }
  });
});
