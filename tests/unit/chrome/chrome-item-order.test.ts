import { describe, expect, it } from 'vitest';
import { unpackRow } from '../../../src-main/core/rows/packed-items';
import { openChromeEvents } from '../../support/chrome-events';

const open = (events: object[]) => openChromeEvents(events, 'order.json');
const x = (name: string, tid: number, ts: number, dur: number) => ({
  ph: 'X',
  name,
  pid: 1,
  tid,
  ts,
  dur,
});

/**
 * A row's items by lane, then start, then name, whatever order the file writes its events in
 * (the items of a lane are sorted only when they are not in order already).
 */
describe("a Chrome row's items", () => {
  it('come by lane, start and name from events written out of order', () => {
    const trace = open([
      x('late', 1, 50, 5),
      x('outer', 1, 0, 100),
      x('c', 1, 30, 5),
      x('b', 1, 10, 5),
      // at the start of outer, on its lane: by name, before it
      { ph: 'i', name: 'mark', pid: 1, tid: 1, ts: 0, s: 't' },
      x('other', 2, 1, 2),
      x('first', 2, 0, 1),
    ]);
    const items = unpackRow(trace.rows[0]).items;
    expect(items.map((i) => [i.lane, i.name])).toEqual([
      [0, 'mark'],
      [0, 'outer'],
      [1, 'b'],
      [1, 'c'],
      [1, 'late'],
      [2, 'first'],
      [2, 'other'],
    ]);
  });

  it('keep the order written for items of one lane, start and name', () => {
    const trace = open([
      { ...x('same', 1, 10, 5), args: { n: 1 } },
      { ...x('same', 1, 10, 5), args: { n: 2 } },
      x('earlier', 1, 0, 5),
      { ...x('same', 1, 10, 5), args: { n: 3 } },
    ]);
    const items = unpackRow(trace.rows[0]).items;
    expect(items.map((i) => (i.type === 'span' ? i.attrs.start_attrs.n : null))).toEqual([
      undefined,
      1,
      2,
      3,
    ]);
  });
});
