import { describe, expect, it } from 'vitest';
import { packRows } from '../../../src-main/core/rows/packed-items';
import { buildStore } from '../../../src-main/core/store/build-store';
import {
  SearchTextColumn,
  SearchTextsWhileReading,
  buildSearchTextSlice,
  searchTextsOf,
  searchTextReady,
} from '../../../src-main/core/store/search-text';
import { resolve } from 'node:path';
import { RowTrigrams, trigramsOf } from '../../../src-main/core/store/search-trigrams';
import { openTraceFile } from '../../../src-main/core/open/open-trace-file';
import { SLIME, fixtureSource } from '../../support/fixtures';
import { point, row, span } from './hand-rows';
import { bytesSource } from '../../../src-main/core/bytes/byte-source';
import { defineFormat } from '../../../src-main/core/formats/format-descriptor';
import { NO_SAMPLES } from '../../../src-main/core/model/sample-facts';
import { warmIndexes } from '../../../src-main/core/store/warm-indexes';

/** every row's search text, as strings */
const textsOf = (store: Parameters<typeof searchTextsOf>[0]) => {
  const column = searchTextsOf(store);
  return Array.from({ length: column.length }, (_, r) => column.text(r));
};

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
    expect(textsOf(buildStore({ rows: rows() }))).toEqual([
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
    expect(searchTextsOf(store)).toBe(texts);
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
    expect(textsOf(store)).toEqual(textsOf(buildStore({ rows: rows() })));
    // a preview of the first two rows gets the texts of those two only
    const preview = buildStore({ rows: growing.slice(0, 2) });
    reading.seed(preview);
    expect(searchTextReady(preview)).toBe(true);
    expect(textsOf(preview)).toEqual(textsOf(store).slice(0, 2));
  });

  it('texts are reused, not made again, and never given to a store of other rows', () => {
    const growing = rows();
    const reading = new SearchTextsWhileReading();
    reading.extend(growing);
    // the row changes after its text was made: a seeded store shows the text made while reading
    growing[0].source = 'Changed';
    const seeded = buildStore({ rows: growing });
    reading.seed(seeded);
    expect(textsOf(seeded)[0]).toContain('gsm8k');
    // other Row objects with the same content: their own texts, made now
    const other = buildStore({ rows: rows() });
    reading.seed(other);
    expect(searchTextReady(other)).toBe(false);
    expect(textsOf(other)[0].split(SEP)[2]).toBe('gsm8k');
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
    expect(textsOf(all)[0].split(SEP)[2]).toBe('gsm8k');
    expect(textsOf(all)).toHaveLength(4);
    // the same list cut back and grown with another row: its texts are made again
    growing.length = 1;
    const other = rows()[2];
    other.source = 'Other';
    growing.push(other);
    reading.extend(growing);
    const again = buildStore({ rows: growing });
    reading.seed(again);
    expect(textsOf(again)[1].split(SEP)[2]).toBe('other');
    // a store whose first row is one of these but whose last is not gets nothing
    const mixed = buildStore({ rows: [growing[0], rows()[2]] });
    reading.seed(mixed);
    expect(searchTextReady(mixed)).toBe(false);
  });
});

describe('searching the texts', () => {
  // every row of a real dump, in chunks of 256 bytes (many rows to a chunk, some rows longer
  // than a chunk), against a string search of each row's own text
  const store = openTraceFile([fixtureSource(resolve(SLIME, 'rollout_agentic.pt'))]).store;
  const column = new SearchTextColumn(256);
  for (const r of store.rows) column.add(r);
  const texts = Array.from({ length: column.length }, (_, r) => column.text(r));
  const bySearch = (needle: string, only: Uint8Array | null = null) => {
    const out = new Uint8Array(column.length);
    column.matchInto(needle, out, only);
    return Array.from(out);
  };
  const byStrings = (needle: string, only: Uint8Array | null = null) =>
    texts.map((t, r) => (t.includes(needle) && (only === null || only[r] === 1) ? 1 : 0));

  it('holds the same texts as the whole store’s, and finds what a string search finds', () => {
    expect(texts).toEqual(textsOf(store));
    expect(texts.some((t) => t.length > 256)).toBe(true);
    const needles = ['sglang_generate', 'tool', '=', 'e', '#1', 'no such text', '0.', 'stop'];
    // pieces of rows' own texts, from their starts, middles and ends
    for (const t of texts.slice(0, 8)) {
      needles.push(t.slice(0, 5), t.slice(t.length >> 1, (t.length >> 1) + 7), t.slice(-4));
    }
    for (const needle of needles) expect(bySearch(needle)).toEqual(byStrings(needle));
    expect(bySearch('sglang_generate').filter(Boolean).length).toBeGreaterThan(0);
    expect(bySearch('no such text').filter(Boolean).length).toBe(0);
  });

  it('among the rows `only` marks, tested row by row or through the chunks alike', () => {
    const few = new Uint8Array(column.length);
    few[1] = few[5] = 1;
    const most = new Uint8Array(column.length).fill(1);
    most[0] = 0;
    for (const only of [few, most])
      for (const needle of ['tool', 'e', 'no such text'])
        expect(bySearch(needle, only)).toEqual(byStrings(needle, only));
  });

  it('with rows’ runs of three bytes (all, some or none built), finds what a string search finds', () => {
    // the same rows, with the runs of the first `built` rows: those rows are searched only
    // where their runs may hold the needle's
    const needles = ['sglang_generate', 'tool', 'python', 'stop', 'no such text', 'xyz', '0.0'];
    for (const t of texts.slice(0, 12)) {
      needles.push(t.slice(0, 3), t.slice(t.length >> 1, (t.length >> 1) + 9), t.slice(-6));
    }
    const few = new Uint8Array(column.length);
    few[1] = few[5] = 1;
    const most = new Uint8Array(column.length).fill(1);
    most[0] = most[7] = 0;
    for (const built of [0, 1, 9, column.length]) {
      const withRuns = new SearchTextColumn(256);
      for (const r of store.rows) withRuns.add(r);
      withRuns.buildTrigrams(built);
      expect(withRuns.trigramsReady).toBe(built === column.length);
      for (const needle of needles)
        for (const only of [null, few, most]) {
          const out = new Uint8Array(withRuns.length);
          withRuns.matchInto(needle, out, only);
          expect(Array.from(out), `${needle} (${built} rows with runs)`).toEqual(
            byStrings(needle, only),
          );
        }
    }
    expect(byStrings('python').filter(Boolean).length).toBeGreaterThan(0);
  });

  it('over hundreds of rows, a needle many rows hold and one few hold, as a string search', () => {
    // past the first 256 rows asked (many may hold it: searched through the chunks) and a
    // quarter of the rows (few may: searched row by row)
    const many = new SearchTextColumn(4096);
    const rowTexts: string[] = [];
    for (let k = 0; k < 1200; k++) {
      many.add(store.rows[k % store.rows.length]);
      rowTexts.push(texts[k % texts.length]);
    }
    many.buildTrigrams(Infinity);
    const rare = texts[3].slice(-9);
    for (const needle of ['sglang', 'tool', 'python', rare, 'no such text']) {
      const out = new Uint8Array(many.length);
      many.matchInto(needle, out, null);
      expect(Array.from(out), needle).toEqual(rowTexts.map((t) => (t.includes(needle) ? 1 : 0)));
    }
  });

  it('a row that has every run of the needle but not the needle is searched, and not matched', () => {
    // "aba bab" has the runs of "abab" but not "abab": searched after a row that matched
    const labels = ['abab', 'aba bab', 'x', 'aba-bab abab', 'bab aba', 'ab ab'];
    const column = new SearchTextColumn(64);
    for (const r of packRows(labels.map((label, i) => row({ row_id: i, start: 0, end: 1, label }))))
      column.add(r);
    column.buildTrigrams(Infinity);
    const out = new Uint8Array(labels.length);
    column.matchInto('abab', out, null);
    expect(Array.from(out)).toEqual([1, 0, 0, 1, 0, 0]);
  });

  it('a row’s runs of three bytes never rule out a needle its text holds', () => {
    // every run of three bytes of every row, asked of that row's bits
    const runs = new RowTrigrams();
    const bytes = texts.map((t) => Buffer.from(t, 'utf8'));
    for (const b of bytes) runs.add(b, 0, b.length);
    let ruledOut = 0;
    let asked = 0;
    bytes.forEach((b, r) => {
      for (let i = 0; i + 3 <= b.length; i += 3) {
        expect(runs.mayHold(r, trigramsOf(b.subarray(i, i + 3)))).toBe(true);
      }
      // a run from another row's text: ruled out unless this row has it (or its bit)
      for (const other of bytes.slice(0, 4)) {
        const needle = other.subarray(other.length >> 1, (other.length >> 1) + 8);
        if (b.includes(needle)) expect(runs.mayHold(r, trigramsOf(needle))).toBe(true);
        else if (!runs.mayHold(r, trigramsOf(needle))) ruledOut++;
        asked++;
      }
    });
    // the bits rule out most rows that lack a needle (else they would save nothing)
    expect(ruledOut).toBeGreaterThan(asked / 4);
    expect(trigramsOf(Buffer.from('ab'))).toHaveLength(0);
    expect(trigramsOf(Buffer.from('aaaa'))).toHaveLength(1);
  });

  it('a row read over several steps gets the bits it would get in one, and may hold anything till then', () => {
    // a GPU rank's row is one text of hundreds of MB: its runs are made a few MB a step
    const bytes = texts.map((t) => Buffer.from(t, 'utf8'));
    const whole = new RowTrigrams();
    for (const b of bytes) whole.add(b, 0, b.length);
    const needles = bytes.flatMap((b) => [b.subarray(0, 5), b.subarray(b.length >> 1)]);
    needles.push(Buffer.from('no such text'));
    for (const budget of [1, 2, 3, 7, 100]) {
      const stepped = new RowTrigrams();
      bytes.forEach((b, r) => {
        let steps = 0;
        while (!stepped.add(b, 0, b.length, budget)) {
          steps++;
          expect(stepped.length).toBe(r);
          expect(stepped.mayHold(r, trigramsOf(Buffer.from('no such text')))).toBe(true);
        }
        expect(steps).toBe(Math.ceil(b.length / budget) - 1);
      });
      for (let r = 0; r < bytes.length; r++)
        for (const needle of needles)
          expect(stepped.mayHold(r, trigramsOf(needle)), `${budget}: row ${r}`).toBe(
            whole.mayHold(r, trigramsOf(needle)),
          );
    }
    // a column's step reads about its byte budget, a long row over several steps
    const column = new SearchTextColumn(256);
    for (const r of store.rows) column.add(r);
    let steps = 0;
    while (!column.trigramsReady) {
      column.buildTrigrams(Infinity, 64);
      steps++;
    }
    const total = texts.reduce((sum, t) => sum + Buffer.byteLength(t, 'utf8'), 0);
    expect(steps).toBeGreaterThanOrEqual(Math.floor(total / 64));
  });

  it('a needle holding SEP matches within a row, never from one row into the next', () => {
    // rows 2 and 3 end to end in one chunk
    const whole = new SearchTextColumn();
    for (const r of store.rows) whole.add(r);
    const bySearch = (needle: string) => {
      const out = new Uint8Array(whole.length);
      whole.matchInto(needle, out, null);
      return Array.from(out);
    };
    const t = texts[2];
    const across = `${t.slice(-3)}${SEP}${texts[3].slice(0, 3)}`;
    expect(byStrings(across).every((match) => match === 0)).toBe(true);
    expect(bySearch(across)).toEqual(byStrings(across));
    const within = t.slice(0, t.indexOf(SEP) + 3);
    expect(within).toContain(SEP);
    expect(bySearch(within)).toEqual(byStrings(within));
  });

  it('lowercases as the engine does, letters beyond ASCII included', () => {
    const unicode = new SearchTextColumn(64);
    const label = 'ΟΔΟΣ Straße İstanbul ÀB';
    unicode.add(packRows([row({ row_id: 0, start: 0, end: 1, sample_index: 1, label })])[0]);
    // the whole text lowercased at once (final sigma: ΟΔΟΣ -> οδος)
    expect(unicode.text(0)).toBe(['#1', '1', '', '', label, ''].join(SEP).toLowerCase());
    expect(unicode.text(0)).toContain('οδος straße i̇stanbul àb');
    const out = new Uint8Array(1);
    unicode.matchInto('straße i̇stanbul', out, null);
    expect(out[0]).toBe(1);
  });

  it('short values lowercased byte by byte read as the engine lowercases them, ASCII or not', () => {
    // values around the length tried as ASCII first, with capitals, the letters just outside
    // A-Z, control bytes, and a letter beyond ASCII at the start, middle or end
    const labels = [
      'AZaz@[`{',
      `\u0000\u007f${'Q'.repeat(62)}`,
      'Ü'.padEnd(64, 'X'),
      'X'.repeat(63) + 'Σ',
      'X'.repeat(65),
      'ABCÉDEF',
      '',
      'İX',
    ];
    const column = new SearchTextColumn(128);
    labels.forEach((label, r) =>
      column.add(packRows([row({ row_id: r, start: 0, end: 1, sample_index: r, label })])[0]),
    );
    labels.forEach((label, r) =>
      expect(column.text(r)).toBe([`#${r}`, `${r}`, '', '', label, ''].join(SEP).toLowerCase()),
    );
  });

  it('a value longer than a chunk, beyond ASCII at its end, is kept whole and found', () => {
    const long = new SearchTextColumn(1024);
    const label = `${'Ab'.repeat(40_000)} ΤΈΛΟΣ`;
    long.add(packRows([row({ row_id: 0, start: 0, end: 1, sample_index: 1, label })])[0]);
    long.add(packRows([row({ row_id: 1, start: 0, end: 1, sample_index: 2, label: 'x' })])[0]);
    expect(long.text(0)).toBe(['#1', '1', '', '', label, ''].join(SEP).toLowerCase());
    expect(long.text(1)).toBe(['#2', '2', '', '', 'x', ''].join(SEP));
    const out = new Uint8Array(2);
    long.matchInto('abab τέλος', out, null);
    expect(Array.from(out)).toEqual([1, 0]);
  });
});

describe('search texts of rows a format gives only at the end (a helper thread’s part)', () => {
  // rows() while reading, then rows() again after them in one go as the open returns, as slime's
  // helper thread's rows come once every byte is read
  const late = defineFormat({
    id: 'late-rows',
    labels: {
      name: 'late rows',
      short: 'LR',
      noun: 'late rows',
      expected: 'late rows',
      samples: 'rows',
      source: 'source',
      search: 'names',
    },
    sniff: (head) => new TextDecoder().decode(head.subarray(0, 9)) === 'late-rows',
    open(_sources, options) {
      const all = [...rows(), ...rows().map((r, k) => ({ ...r, row_id: 3 + k }))];
      options.onRows?.(all.slice(0, 3), NO_SAMPLES);
      options.onStepEnd?.('read');
      return {
        rows: all,
        samples: NO_SAMPLES,
        perf: {},
        notices: [],
        sampleCount: all.length,
        untracedSamples: 0,
      };
    },
  });

  it('are not made before the file is said open; the warm-up makes them, the same texts', () => {
    const file = bytesSource('late.txt', new TextEncoder().encode('late-rows'));
    const trace = openTraceFile([file], { formats: [late], onPreview: () => {} });
    expect(trace.store.rowCount).toBe(6);
    // the three rows read while reading have theirs; the last three none yet
    expect(searchTextReady(trace.store)).toBe(false);
    for (const step = warmIndexes(trace.store); !step.next().done;);
    expect(searchTextReady(trace.store)).toBe(true);
    const again = rows().map((r, k) => ({ ...r, row_id: 3 + k }));
    const fresh = textsOf(buildStore({ rows: [...rows(), ...again] }));
    expect(textsOf(trace.store)).toEqual(fresh);
    expect(fresh[3]).toBe(fresh[0]);
  });
});
