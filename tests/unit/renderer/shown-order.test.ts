import { describe, expect, it } from 'vitest';
import type { RowFacts, RowOrder, RowQuery, TraceApi } from '../../../src-main/core/api/trace-api';
import { queryShownRows, rowFactsOf, shownOrder } from '../../../src-renderer/host/shown-order';

// What the renderer makes of a row order (ids only) and the rows' facts (asked once per store):
// per shown row its lanes, start and end, in display order.

const facts = (storeVersion: number, rowIds: number[]): RowFacts => ({
  storeVersion,
  rowIds: Int32Array.from(rowIds),
  // row id r has r + 1 lanes, starts at r and ends at 10 r + 5: each value names its row
  laneCounts: Int32Array.from(rowIds, (r) => r + 1),
  startSec: Float64Array.from(rowIds, (r) => r),
  endSec: Float64Array.from(rowIds, (r) => 10 * r + 5),
});

const order = (storeVersion: number, rowIds: number[], total = rowIds.length): RowOrder => ({
  storeVersion,
  rowIds: Int32Array.from(rowIds),
  total,
});

describe('an order joined with its facts', () => {
  it('takes each shown row’s lanes, start and end by its id, in display order', () => {
    const shown = shownOrder(order(3, [2, 0, 1], 3), facts(3, [0, 1, 2]));
    expect(Array.from(shown.rowIds)).toEqual([2, 0, 1]);
    expect(Array.from(shown.laneCounts)).toEqual([3, 1, 2]);
    expect(Array.from(shown.startSec)).toEqual([2, 0, 1]);
    expect(Array.from(shown.endSec)).toEqual([25, 5, 15]);
    expect(shown.total).toBe(3);
    expect(shown.storeVersion).toBe(3);
  });

  it('a filtered order takes only its rows', () => {
    const shown = shownOrder(order(1, [4], 5), facts(1, [0, 1, 2, 3, 4]));
    expect(Array.from(shown.laneCounts)).toEqual([5]);
    expect(Array.from(shown.endSec)).toEqual([45]);
    expect(shown.total).toBe(5);
  });

  it('finds rows whose ids are far apart or negative (a lookup by hash, not by array)', () => {
    const ids = [5_000_000, -7, 12];
    const shown = shownOrder(order(2, [12, 5_000_000, -7]), facts(2, ids));
    expect(Array.from(shown.laneCounts)).toEqual([13, 5_000_001, -6]);
    expect(Array.from(shown.startSec)).toEqual([12, 5_000_000, -7]);
  });

  it('facts without ids (row i is id i) join by place', () => {
    const identity = { ...facts(4, [0, 1, 2]), rowIds: null };
    const shown = shownOrder(order(4, [2, 0]), identity);
    expect(Array.from(shown.laneCounts)).toEqual([3, 1]);
    expect(Array.from(shown.endSec)).toEqual([25, 5]);
    expect(() => shownOrder(order(4, [3]), identity)).toThrow('row 3 is not in store 4');
    expect(() => shownOrder(order(4, [-1]), identity)).toThrow('row -1 is not in store 4');
  });

  it('refuses facts of another store, and a row the facts do not have', () => {
    expect(() => shownOrder(order(2, [0]), facts(3, [0]))).toThrow(
      'row order of store 2 joined with facts of store 3',
    );
    expect(() => shownOrder(order(3, [9]), facts(3, [0, 1]))).toThrow('row 9 is not in store 3');
  });
});

/** A TraceApi with a store that is replaced after `replaceAfter` orders (a file still read). */
function fakeApi(stores: number[][], replaceAfter = Infinity) {
  let current = 0;
  const asked = { orders: 0, facts: 0 };
  const api = {
    queryRows: async (_fileId: string, query: RowQuery) => {
      asked.orders++;
      const rows = stores[current];
      const answer = order(current + 1, query.descending ? [...rows].reverse() : rows);
      if (asked.orders >= replaceAfter && current < stores.length - 1) current++;
      return answer;
    },
    getRowFacts: async () => {
      asked.facts++;
      return facts(current + 1, stores[current]);
    },
  } as unknown as TraceApi;
  return { api, asked };
}

describe('asking the shown rows', () => {
  it('asks the facts once per store: a second sort sends the order alone', async () => {
    const { api, asked } = fakeApi([[0, 1, 2]]);
    const first = await queryShownRows(api, 'f1', { sort: 'row_id' });
    const second = await queryShownRows(api, 'f1', { sort: 'row_id', descending: true });
    expect(Array.from(first.startSec)).toEqual([0, 1, 2]);
    expect(Array.from(second.startSec)).toEqual([2, 1, 0]);
    expect(asked).toEqual({ orders: 2, facts: 1 });
  });

  it('a store replaced between the order and its facts: the order is asked again', async () => {
    // the first order comes from the preview (2 rows); the file is whole before the facts
    const { api, asked } = fakeApi(
      [
        [0, 1],
        [0, 1, 2, 3],
      ],
      1,
    );
    const shown = await queryShownRows(api, 'f2', { sort: 'row_id' });
    expect(shown.storeVersion).toBe(2);
    expect(Array.from(shown.rowIds)).toEqual([0, 1, 2, 3]);
    expect(Array.from(shown.endSec)).toEqual([5, 15, 25, 35]);
    expect(asked).toEqual({ orders: 2, facts: 1 });
  });

  it('facts are kept per file and version: another file asks its own', async () => {
    const { api, asked } = fakeApi([[0]]);
    const a = await rowFactsOf(api, 'a', 1);
    expect(await rowFactsOf(api, 'a', 1)).toBe(a);
    await rowFactsOf(api, 'b', 1);
    expect(asked.facts).toBe(2);
  });
});

describe('the facts asked beside the order (a file’s first rows)', () => {
  /** fakeApi whose orders answer only when released: what was asked meanwhile is in `log` */
  function gatedApi(stores: number[][]) {
    let current = 0;
    const log: string[] = [];
    const gates: (() => void)[] = [];
    const api = {
      queryRows: (_fileId: string, query: RowQuery) => {
        log.push('order');
        // the store as it is when the order answers
        return new Promise<RowOrder>((resolve) =>
          gates.push(() => {
            const rows = stores[current];
            resolve(order(current + 1, query.descending ? [...rows].reverse() : rows));
          }),
        );
      },
      getRowFacts: async () => {
        log.push('facts');
        return facts(current + 1, stores[current]);
      },
    } as unknown as TraceApi;
    const release = async () => {
      // the order is asked once the call before it returned: wait for it, then answer it
      while (gates.length === 0) await Promise.resolve();
      gates.shift()!();
    };
    return { api, log, release, grow: () => current++ };
  }

  it('asks the facts before the order answers when none of this size are kept', async () => {
    const { api, log, release } = gatedApi([[0, 1, 2]]);
    const shown = queryShownRows(api, 'g1', { sort: 'row_id' }, 3);
    await release();
    const answer = await shown;
    // both asked before either answered: one round trip
    expect(log).toEqual(['facts', 'order']);
    expect(Array.from(answer.endSec)).toEqual([5, 15, 25]);
  });

  it('a sort of the same rows asks the order alone', async () => {
    const { api, log, release } = gatedApi([[0, 1, 2]]);
    const first = queryShownRows(api, 'g2', { sort: 'row_id' }, 3);
    await release();
    await first;
    const second = queryShownRows(api, 'g2', { sort: 'row_id', descending: true }, 3);
    await release();
    expect(Array.from((await second).startSec)).toEqual([2, 1, 0]);
    expect(log).toEqual(['facts', 'order', 'order']);
  });

  it('rows grown since (a newer preview): the new store’s facts are asked ahead again', async () => {
    const { api, log, release, grow } = gatedApi([
      [0, 1],
      [0, 1, 2, 3],
    ]);
    const first = queryShownRows(api, 'g3', { sort: 'row_id' }, 2);
    await release();
    expect((await first).storeVersion).toBe(1);
    grow();
    const second = queryShownRows(api, 'g3', { sort: 'row_id' }, 4);
    await release();
    const answer = await second;
    expect(answer.storeVersion).toBe(2);
    expect(Array.from(answer.endSec)).toEqual([5, 15, 25, 35]);
    expect(log).toEqual(['facts', 'order', 'facts', 'order']);
  });

  it('facts ahead of an older store than the order’s: the order’s own are asked', async () => {
    const { api, log, release, grow } = gatedApi([[0], [0, 1]]);
    const shown = queryShownRows(api, 'g4', { sort: 'row_id' }, 1);
    // the file grows after the facts answered, before the order is taken
    await Promise.resolve();
    grow();
    await release();
    const answer = await shown;
    expect(answer.storeVersion).toBe(2);
    expect(Array.from(answer.rowIds)).toEqual([0, 1]);
    expect(log).toEqual(['facts', 'order', 'facts']);
  });
});
