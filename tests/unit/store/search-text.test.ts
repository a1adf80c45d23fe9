import { describe, expect, it } from 'vitest';
import { buildStore } from '../../../src-main/core/store/build-store';
import {
  buildSearchTextSlice,
  rowSearchText,
  searchTextReady,
} from '../../../src-main/core/store/search-text';
import { point, row, span } from './hand-rows';

const SEP = '\u0001';

const rows = () => [
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
];

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
