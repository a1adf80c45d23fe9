import { describe, expect, it } from 'vitest';
import { packRows } from '../../../src-main/core/rows/packed-items';
import { buildStore } from '../../../src-main/core/store/build-store';
import {
  SearchTextsWhileReading,
  buildSearchTextSlice,
  rowSearchText,
  searchTextReady,
} from '../../../src-main/core/store/search-text';
import { point, row, span } from './hand-rows';

const SEP = '\u0001';

const rows = () =>
  packRows([
    row({
      row_id: 0,
      start: 0,
      end: 2,
      sample_index: 3,
      source: 'GSM8K',
      status: 'ok',
      label: { a: [1, 'X'], b: null },
      trace_id: 'T1',
      items: [
        span({
          name: 'Gen',
          start_ts: 0,
          attrs: { start_attrs: { tool: 'Py' }, end_attrs: { n: 2 } },
          service: 'Svc',
        }),
        point({ name: 'Ev', ts: 1, attrs: { k: true, u: undefined as never } }),
        span({ name: 'Gen', start_ts: 1 }),
      ],
    }),
    row({ row_id: 1, start: 0, end: 1, sample_index: 'x', label: 5 }),
    row({ row_id: 2, start: 0, end: 1 }),
  ]);

describe('row search text', () => {
  it('joins index, source, status, label, trace id, attrs, services and each name once, lowercased', () => {
    // written out by hand from rows() above, in the order search-text.ts documents
    expect(rowSearchText(buildStore({ rows: rows() }))).toEqual([
      [
        '#3',
        '3',
        'gsm8k',
        'ok',
        'a=1 x b=',
        't1',
        'tool=py',
        'n=2',
        'svc',
        'k=true u=',
        '',
        '',
        'gen',
        'ev',
      ].join(SEP),
      ['#x', 'x', '', '', '5', ''].join(SEP),
      ['#2', '2', '', '', '', ''].join(SEP),
    ]);
  });

  it('is built a slice at a time and kept per store', () => {
    const store = buildStore({ rows: rows() });
    expect(searchTextReady(store)).toBe(false);
    expect(buildSearchTextSlice(store, 1)).toHaveLength(1);
    expect(searchTextReady(store)).toBe(false);
    expect(buildSearchTextSlice(store, 1)).toHaveLength(2);
    const texts = buildSearchTextSlice(store, 5);
    expect(texts).toHaveLength(3);
    expect(searchTextReady(store)).toBe(true);
    expect(rowSearchText(store)).toBe(texts);
    expect(searchTextReady(buildStore({ rows: rows() }))).toBe(false);
    expect(searchTextReady(buildStore({ rows: rows().slice(0, 1) }))).toBe(false);
  });
});

describe('search texts made while a file is read', () => {
  it('a store of the same rows starts with the texts made as they came in', () => {
    const all = rows();
    const reading = new SearchTextsWhileReading();
    expect(reading.started).toBe(false);
    const growing: ReturnType<typeof rows> = [];
    for (const r of all) {
      growing.push(r);
      reading.extend(growing);
    }
    expect(reading.started).toBe(true);
    const store = buildStore({ rows: growing });
    reading.seed(store);
    expect(searchTextReady(store)).toBe(true);
    expect(rowSearchText(store)).toEqual(rowSearchText(buildStore({ rows: rows() })));
    // a preview of the first two rows gets the texts of those two only
    const preview = buildStore({ rows: growing.slice(0, 2) });
    reading.seed(preview);
    expect(searchTextReady(preview)).toBe(true);
    expect(rowSearchText(preview)).toEqual(rowSearchText(store).slice(0, 2));
  });

  it('texts are reused, not made again, and never given to a store of other rows', () => {
    const growing = rows();
    const reading = new SearchTextsWhileReading();
    reading.extend(growing);
    // the row changes after its text was made: a seeded store shows the text made while reading
    growing[0].source = 'Changed';
    const seeded = buildStore({ rows: growing });
    reading.seed(seeded);
    expect(rowSearchText(seeded)[0]).toContain('gsm8k');
    // other Row objects with the same content: their own texts, made now
    const other = buildStore({ rows: rows() });
    reading.seed(other);
    expect(searchTextReady(other)).toBe(false);
    expect(rowSearchText(other)[0].split(SEP)[2]).toBe('gsm8k');
    // a new list (a format that started over) starts over
    const fresh = rows();
    reading.extend(fresh);
    const again = buildStore({ rows: fresh });
    reading.seed(again);
    expect(searchTextReady(again)).toBe(true);
  });

  it('texts made once stay made as the list grows; a list that shrank, or other rows, start over', () => {
    const made = rows();
    const growing = [made[0], made[1], made[2]];
    const reading = new SearchTextsWhileReading();
    reading.extend(growing);
    // row 0 changes, then the list grows: row 0's text is not made again
    growing[0].source = 'Later';
    const extra = rows()[1];
    growing.push(extra);
    reading.extend(growing);
    const all = buildStore({ rows: growing });
    reading.seed(all);
    expect(rowSearchText(all)[0].split(SEP)[2]).toBe('gsm8k');
    expect(rowSearchText(all)).toHaveLength(4);
    // the same list cut back and grown with another row: its texts are made again
    growing.length = 1;
    const other = rows()[2];
    other.source = 'Other';
    growing.push(other);
    reading.extend(growing);
    const again = buildStore({ rows: growing });
    reading.seed(again);
    expect(rowSearchText(again)[1].split(SEP)[2]).toBe('other');
    // a store whose first row is one of these but whose last is not gets nothing
    const mixed = buildStore({ rows: [growing[0], rows()[2]] });
    reading.seed(mixed);
    expect(searchTextReady(mixed)).toBe(false);
  });
});
