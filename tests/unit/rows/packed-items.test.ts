import { readdirSync } from 'node:fs';
import { resolve } from 'node:path';
import { jsonText } from '../../../src-main/core/model/json-text';
import { describe, expect, it } from 'vitest';
import {
  ItemPacker,
  PackedItemCursor,
  packRow,
  revivePackedRows,
  unpackItem,
  unpackItems,
  unpackRow,
} from '../../../src-main/core/rows/packed-items';
import type { Attrs, Row, RowItem, SpanItem } from '../../../src-main/core/model/row';
import { readOtlp } from '../../../src-main/core/formats/otlp/read-otlp';
import { slimeFormat } from '../../../src-main/core/formats/slime/descriptor';
import { OTLP, SLIME, fixtureSource } from '../../support/fixtures';
import { point, row, span } from '../store/hand-rows';

// A file keeps its rows' items packed (numbers and references) and gives them back on demand:
// every field, key order and value must come back as the format built it.

/** slime's rows as its reader builds them, before anything packs them */
function slimeRows(path: string): Row[] {
  const rows: Row[] = [];
  slimeFormat.streamRows!(
    [fixtureSource(path)],
    {},
    { row: (r) => rows.push(r), restart: () => {} },
  );
  return rows;
}

// every dump that opens (not_a_dump.pt and truncated.pt are refused, by their own tests)
const dumps = readdirSync(SLIME).filter(
  (name) => name.endsWith('.pt') && name !== 'not_a_dump.pt' && name !== 'truncated.pt',
);

function expectRoundTrip(rows: Row[], name: string) {
  const packer = new ItemPacker();
  for (const original of rows) {
    const back = unpackRow(packer.packRow(original));
    // toEqual: an OTLP point item's own `error: undefined` is not kept (JSON never had it)
    expect(back, `${name} row ${original.row_id}`).toEqual(original);
    // key order too: `trace-explorer rows` prints rows as slime's cache does
    expect(jsonText(back)).toBe(jsonText(original));
  }
}

describe('packed items give back what the format built', () => {
  it.each(dumps)('every row of the slime dump %s (one packer: shapes shared)', (name) => {
    const rows = slimeRows(resolve(SLIME, name));
    expectRoundTrip(rows, name);
  });

  it('the fixture dumps hold what the layout has to carry', () => {
    const items = dumps.flatMap((name) => slimeRows(resolve(SLIME, name))).flatMap((r) => r.items);
    // open spans, point events, orphan ends, PD views with phases, null attempts and ids
    expect(items.some((i) => i.state === 'open_span')).toBe(true);
    expect(items.some((i) => i.type === 'event')).toBe(true);
    expect(items.some((i) => i.type === 'orphan_end')).toBe(true);
    expect(items.some((i) => i.type === 'span' && (i.pd?.phases.length ?? 0) > 0)).toBe(true);
    expect(items.some((i) => i.span_id === null)).toBe(true);
  });

  it.each(['roll_traces.jsonl', 'sglang_otel_trace.json'])(
    'every row of the OTLP file %s (links, resources, lane labels, errors)',
    (name) => {
      const rows = readOtlp([fixtureSource(resolve(OTLP, name))]).rows;
      expect(rows.some((r) => r.items.some((i) => i.otel !== undefined))).toBe(true);
      expectRoundTrip(rows, name);
    },
  );

  it('numbers keep -0, NaN and infinities; other values stay as they are, shared', () => {
    const nested = { list: [1, 'two', null], deep: { ok: true } };
    const item = span({
      name: 'gen',
      start_ts: 1.5,
      end_ts: null,
      display_end_ts: 3.25,
      attempt: null,
      attrs: {
        start_attrs: { zero: -0, nan: NaN, inf: -Infinity, text: 'x', flag: false, none: null },
        end_attrs: { nested, clipped_by: 'row_end' },
      },
    });
    item.state = 'open_span';
    const [back] = unpackItems(packRow(row({ row_id: 0, start: 0, end: 1, items: [item] })).packed);
    expect(back).toStrictEqual(item);
    if (back.type !== 'span') throw new Error('a span comes back a span');
    expect(Object.is(back.attrs.start_attrs.zero, -0)).toBe(true);
    expect(back.attrs.end_attrs.nested).toBe(nested);
    expect(back.end_ts).toBeNull();
    expect(back.attempt).toBeNull();
  });

  it('a closed span whose end or attempt is NaN keeps NaN (null is only for what had none)', () => {
    const item = span({ name: 'gen', start_ts: 1, end_ts: NaN, display_end_ts: 2, attempt: NaN });
    const [back] = unpackItems(packRow(row({ row_id: 0, start: 0, end: 1, items: [item] })).packed);
    expect(back).toStrictEqual(item);
    expect(back.type === 'span' && back.state).toBe('closed_span');
    expect(back.type === 'span' && Number.isNaN(back.end_ts)).toBe(true);
    expect(Number.isNaN(back.attempt)).toBe(true);
  });

  it('attempts, lanes and depths too big, fractional, negative or -0 for a compact item come back', () => {
    // a compact item keeps attempt < 2^8, lane < 2^16, depth < 2^16 in its code number
    const values: [number | null, number, number][] = [
      [255, 65535, 65535], // the largest compact ones
      [256, 0, 0],
      [0, 32768, 1], // a lane past int32's sign bit once shifted
      [0, 65536, 0],
      [0, 0, 65536],
      [1.5, 2, 3],
      [-1, 2, 3],
      [-0, 2, 3],
      [1, -0, 3],
      [1, 2, -0],
      [null, 2 ** 40, 7],
      [Infinity, 0, 0],
    ];
    const items: RowItem[] = values.flatMap(([attempt, lane, depth], k) => [
      span({
        name: `s${k}`,
        start_ts: k,
        end_ts: k + 1,
        display_end_ts: k + 0.5,
        attempt,
        lane,
        depth,
      }),
      point({ name: `p${k}`, ts: k, attempt, lane, depth }),
    ]);
    const packed = packRow(row({ row_id: 0, start: 0, end: 9, items })).packed;
    const back = unpackItems(packed);
    expect(back).toStrictEqual(items);
    back.forEach((item, k) => {
      for (const key of ['attempt', 'lane', 'depth'] as const)
        expect(Object.is(item[key], items[k][key]), `${item.name} ${key}`).toBe(true);
    });
    const cursor = new PackedItemCursor().reset(packed);
    for (const item of items) {
      cursor.next();
      expect([cursor.lane, cursor.depth].map((v) => Object.is(v, -0))).toEqual([
        Object.is(item.lane, -0),
        Object.is(item.depth, -0),
      ]);
      expect([cursor.lane, cursor.depth]).toEqual([item.lane, item.depth]);
    }
  });

  it('a closed span whose display end is its end, with small attempt, lane and depth, takes 3 numbers', () => {
    const items = [
      span({ name: 'a', start_ts: 1, end_ts: 2, display_end_ts: 2, attempt: 1, lane: 3, depth: 2 }),
      point({ name: 'b', ts: 1.5, attempt: null, lane: 0, depth: 1 }),
    ];
    // the numbers a row takes: where the next row packed with it begins
    const packer = new ItemPacker();
    const packed = packer.packRow(row({ row_id: 0, start: 0, end: 9, items })).packed;
    const next = packer.packRow(row({ row_id: 1, start: 0, end: 9, items })).packed;
    expect(next.first - packed.first).toBe(3 + 2);
    expect(unpackItems(packed)).toStrictEqual(items);
  });

  it('rows of one packer keep their numbers side by side in shared chunks; a big row has its own', () => {
    const packer = new ItemPacker();
    const small = (r: number) =>
      row({
        row_id: r,
        start: r,
        end: r + 1,
        items: [span({ name: 'gen', start_ts: r, end_ts: r + 0.5, display_end_ts: r + 0.5 })],
      });
    const manyItems = Array.from({ length: 20_000 }, (_, k) =>
      point({ name: 'ev', ts: k, attrs: { k } }),
    );
    const rows = [small(0), small(1), row({ row_id: 2, start: 0, end: 1, items: manyItems })];
    for (let r = 3; r < 60_000; r++) rows.push(small(r));
    const packed = rows.map((r) => packer.packRow(r));
    const [a, b, big] = packed.map((p) => p.packed);
    expect(b.numbers).toBe(a.numbers);
    expect(b.first).toBe(a.first + 3);
    expect(big.numbers).not.toBe(a.numbers);
    expect([big.first, big.numbers.length]).toEqual([0, 20_000 * 3]);
    // 60k rows of 3 numbers fill more than one chunk: each row still reads back as it was built
    expect(new Set(packed.map((p) => p.packed.numbers)).size).toBeGreaterThan(2);
    packed.forEach((p, r) => expect(unpackRow(p)).toStrictEqual(rows[r]));
  });

  it('a row of more numbers than a scratch block holds gets one array of its exact length', () => {
    const packer = new ItemPacker();
    // 3 numbers a point: 1.2M numbers, past the 1M a scratch buffer grows to
    const count = 400_000;
    const items = Array.from({ length: count }, (_, k) =>
      point({ name: 'ev', ts: k, attrs: { k } }),
    );
    const before = packer.packRow(row({ row_id: 0, start: 0, end: 1, items: items.slice(0, 10) }));
    const packed = packer.packRow(row({ row_id: 1, start: 0, end: count, items }));
    const after = packer.packRow(row({ row_id: 2, start: 0, end: 1, items: items.slice(5, 9) }));
    const { numbers } = packed.packed;
    expect([packed.packed.first, numbers.length]).toEqual([0, count * 3]);
    expect(numbers.buffer.byteLength).toBe(count * 3 * 8);
    for (const k of [0, 1, 349_524, 349_525, count - 1])
      expect(unpackItem(packed.packed, k)).toStrictEqual(items[k]);
    // the rows packed before and after it read back as they were (no buffer shared with it)
    expect(unpackRow(before).items).toStrictEqual(items.slice(0, 10));
    expect(unpackRow(after).items).toStrictEqual(items.slice(5, 9));
    expect(unpackItem(packed.packed, count - 1)).toStrictEqual(items[count - 1]);
  });

  it('rows keep refs as integers in shared chunks, values once per file; a long row keeps its own', () => {
    const packer = new ItemPacker();
    const text = 'x'.repeat(300); // longer than a shared value: kept where it is met
    const attrs = (k: number) => ({
      start_attrs: { finish: 'stop', flag: k % 2 === 0, none: null, text, list: [k] },
      end_attrs: { phase: `p${k % 3}` },
    });
    const short = (r: number) =>
      row({
        row_id: r,
        start: r,
        end: r + 1,
        items: [span({ name: 'gen', start_ts: r, span_id: `s${r}`, attrs: attrs(r) })],
      });
    const longItems = Array.from({ length: 5000 }, (_, k) =>
      span({
        name: 'gen',
        start_ts: k,
        span_id: `l${k}`,
        parent_span_id: `l${k - 1}`,
        attrs: attrs(k),
      }),
    );
    const rows = [short(0), short(1), row({ row_id: 2, start: 0, end: 1, items: longItems })];
    for (let r = 3; r < 40; r++) rows.push(short(r));
    const packed = rows.map((r) => packer.packRow(r));
    const [a, b, long] = packed.map((p) => p.packed);
    expect(a.refs).toBeInstanceOf(Int32Array);
    expect(b.refs).toBe(a.refs);
    expect(b.refsFirst).toBeGreaterThan(a.refsFirst);
    // 'stop', true, false, null, 'p0'..'p2', 'gen' are kept once: equal refs in every short row
    const finish = (p: (typeof packed)[number]) =>
      (p.packed.refs as Int32Array)[p.packed.refsFirst + 4];
    expect(new Set(packed.filter((_, r) => r !== 2).map(finish)).size).toBe(1);
    // a long row (its ids not numbered) holds its values themselves
    expect(long.refs).not.toBeInstanceOf(Int32Array);
    expect((long.refs as unknown[]).slice(0, 4)).toEqual([0, null, 'l0', 'l-1']);
    packed.forEach((p, r) => expect(unpackRow(p)).toStrictEqual(rows[r]));
  });

  it('plain links are kept as numbers, not objects; others stay values; all come back', () => {
    const packer = new ItemPacker();
    expect(packer.countedIds('r0:', 50)).not.toBeNull();
    const link = (span_id: string, dangling = false) => ({ trace_id: 'rank 0', span_id, dangling });
    const items = [
      // Chrome's launch-to-kernel flows: counted span ids
      span({ name: 'kernel', start_ts: 1, links: [link('r0:3')] }),
      span({ name: 'kernel', start_ts: 2, links: [link('r0:4'), link('r0:49', true)] }),
      // OTLP's: hex ids, and one past the range's count
      span({ name: 'rpc', start_ts: 3, links: [link('1c04f362ab'), link('r0:50')] }),
      // not plain: attrs, another key order, a missing key, a wrong type, an empty list
      span({
        name: 'rpc',
        start_ts: 4,
        links: [{ trace_id: 't', span_id: 's', dangling: false, attrs: { k: 1 } }],
      }),
      span({
        name: 'rpc',
        start_ts: 5,
        links: [{ span_id: 's', trace_id: 't', dangling: false }],
      }),
      span({ name: 'rpc', start_ts: 6, links: [{ trace_id: 't', span_id: 's' }] as never }),
      span({
        name: 'rpc',
        start_ts: 7,
        links: [{ trace_id: 't', span_id: 2, dangling: false }] as never,
      }),
      span({ name: 'rpc', start_ts: 8, links: [] }),
    ];
    const original = row({ row_id: 0, start: 0, end: 9, items });
    const packed = packer.packRow(original);
    expect(unpackRow(packed)).toStrictEqual(original);
    // each link's keys in the order they were built (toStrictEqual does not look at order)
    expect(unpackRow(packed).items.map((i) => jsonText(i.links))).toEqual(
      items.map((i) => jsonText(i.links)),
    );
    // the plain lists are not among the values: only the other ones are
    const values = (packed.packed.table as unknown as { values: unknown[] }).values;
    expect(
      values.filter((v) => Array.isArray(v) && v.length > 0 && typeof v[0] === 'object'),
    ).toHaveLength(4);
    const cursor = new PackedItemCursor().reset(packed.packed);
    const counts: number[] = [];
    const first: unknown[] = [];
    while (cursor.next()) {
      counts.push(cursor.linkCount());
      first.push(cursor.extra('links')?.[0]?.span_id);
    }
    expect(counts).toEqual([1, 2, 2, 1, 1, 1, 1, 0]);
    expect(first.slice(0, 3)).toEqual(['r0:3', 'r0:4', '1c04f362ab']);
    // a helper's rows: the lists come with the table
    const sent = structuredClone(packer.rowsToSend([packed]));
    revivePackedRows(sent);
    expect(unpackRow(sent[0])).toStrictEqual(original);
  });

  it("a long row's links (its refs kept as they are) come back too", () => {
    const packer = new ItemPacker();
    const items = Array.from({ length: 5000 }, (_, k) =>
      span({
        name: 'kernel',
        start_ts: k,
        span_id: `l${k}`,
        links: [{ trace_id: 't', span_id: `l${k - 1}`, dangling: k === 0 }],
      }),
    );
    const original = row({ row_id: 0, start: 0, end: 5000, items });
    const packed = packer.packRow(original);
    expect(packed.packed.refs).not.toBeInstanceOf(Int32Array);
    expect(unpackRow(packed)).toStrictEqual(original);
  });

  it('a frozen value (one copy its format shares) takes one place in the values, not one a use', () => {
    const shared = Object.freeze([128, 1, 1]);
    const rowOf = (r: number, list: readonly number[]) =>
      row({
        row_id: r,
        start: r,
        end: r + 1,
        items: Array.from({ length: 50 }, (_, k) =>
          span({
            name: 'kernel',
            start_ts: r + k / 100,
            attrs: { start_attrs: { grid: list as number[] }, end_attrs: {} },
          }),
        ),
      }) as Row;
    const values = (rows: Row[]) => {
      const packer = new ItemPacker();
      const packed = rows.map((r) => packer.packRow(r));
      packed.forEach((p, r) => expect(unpackRow(p)).toStrictEqual(rows[r]));
      return { packed, count: (packed[0].packed.table as { values: unknown[] }).values.length };
    };
    const frozen = values([rowOf(0, shared), rowOf(1, shared)]);
    const own = values([rowOf(0, [128, 1, 1]), rowOf(1, [128, 1, 1])]);
    // a hundred uses of the frozen array: one value; of an array each item has as its own: 100
    expect(own.count - frozen.count).toBe(99);
    const back = unpackItems(frozen.packed[1].packed);
    expect((back[7] as SpanItem).attrs.start_attrs.grid).toBe(shared);
  });

  it('a "__proto__" key from a file stays a plain own key, with its value', () => {
    const attrs = {} as Record<string, unknown>;
    Object.defineProperty(attrs, '__proto__', {
      value: 7,
      enumerable: true,
      writable: true,
      configurable: true,
    });
    const item = point({ name: 'ev', ts: 2, attrs: attrs as never });
    const [back] = unpackItems(packRow(row({ row_id: 0, start: 0, end: 1, items: [item] })).packed);
    expect(Object.keys(back.attrs)).toEqual(['__proto__']);
    expect(Object.getPrototypeOf(back.attrs)).toBe(Object.prototype);
    expect(Object.getOwnPropertyDescriptor(back.attrs, '__proto__')?.value).toBe(7);
  });

  it('items of one name whose attrs change shape, order or kind each come back as they were', () => {
    const items: RowItem[] = [
      span({ name: 'gen', start_ts: 0, attrs: { start_attrs: { a: 1, b: 'x' }, end_attrs: {} } }),
      span({ name: 'gen', start_ts: 1, attrs: { start_attrs: { b: 'y', a: 2 }, end_attrs: {} } }),
      span({
        name: 'gen',
        start_ts: 2,
        attrs: { start_attrs: { a: 'now text', b: 3 }, end_attrs: {} },
      }),
      span({ name: 'gen', start_ts: 3, attrs: { start_attrs: { a: 1 }, end_attrs: { a: 1 } } }),
      span({ name: 'gen', start_ts: 4, attrs: { start_attrs: { a: 1, b: 'x' }, end_attrs: {} } }),
      point({ name: 'gen', ts: 5, attrs: { a: 1, b: 'x' } }),
    ];
    const original = row({ row_id: 0, start: 0, end: 5, items });
    const back = unpackRow(packRow(original));
    expect(back).toStrictEqual(original);
    expect(back.items.map((i) => JSON.stringify(i.attrs))).toEqual(
      items.map((i) => JSON.stringify(i.attrs)),
    );
  });

  it('items whose shapes take turns (more than the packer keeps at hand) share one head a shape', () => {
    // request-metrics records: keys vary with finish reason and cache details, record by record
    const shapes: Attrs[] = [
      { id: 'a', 'finish_reason.type': 'stop', 'finish_reason.matched': 7 },
      { id: 'b', 'finish_reason.type': 'length', 'finish_reason.length': 256 },
      { id: 'c', 'finish_reason.type': 'stop', 'finish_reason.matched': 7, 'cached.device': 3 },
      { id: 'd', 'finish_reason.type': 'abort', 'finish_reason.message': 'gone' },
      { id: 'e', cached: null },
      { id: 'f', 'cached.device': 1, 'cached.host': 2 },
    ];
    const packer = new ItemPacker();
    const rows = Array.from({ length: 30 }, (_, k) =>
      row({
        row_id: k,
        start: k,
        end: k + 1,
        items: [
          span({
            name: 'request',
            start_ts: k,
            attrs: { start_attrs: { ...shapes[(k * 5) % shapes.length] }, end_attrs: {} },
          }),
        ],
      }),
    );
    const packed = rows.map((r) => packer.packRow(r));
    packed.forEach((p, k) => expect(unpackRow(p)).toStrictEqual(rows[k]));
    expect((packed[0].packed.table as { heads: unknown[] }).heads).toHaveLength(shapes.length);
  });

  it('each unpacking gives fresh objects: a change to one never reaches the packed row', () => {
    const packed = packRow(
      row({
        row_id: 0,
        start: 0,
        end: 1,
        items: [
          span({ name: 'gen', start_ts: 0, attrs: { start_attrs: { a: 1 }, end_attrs: {} } }),
        ],
      }),
    ).packed;
    const first = unpackItems(packed)[0];
    if (first.type !== 'span') throw new Error('a span comes back a span');
    first.attrs.start_attrs.a = 99;
    first.name = 'changed';
    const again = unpackItems(packed)[0];
    expect(again.name).toBe('gen');
    expect(again.type === 'span' && again.attrs.start_attrs.a).toBe(1);
  });
});

describe('rows sent to another thread (a helper’s pieces)', () => {
  it('give back the same items from their last chunks cut to what is used', () => {
    // every fixture dump's rows, many times over: more numbers than one chunk holds
    const rows = dumps.flatMap((name) => slimeRows(resolve(SLIME, name)));
    const many = Array.from({ length: 40 }, () => rows).flat();
    const packer = new ItemPacker();
    const packed = many.map((r) => packer.packRow(r));
    const sent = packer.rowsToSend(packed);
    expect(sent).toHaveLength(packed.length);
    const chunks = new Set(sent.map((r) => r.packed.numbers.buffer));
    expect(chunks.size).toBeGreaterThan(1);
    // the full chunks are shared as they were; the last one is only as long as its numbers
    const last = sent.at(-1)!.packed;
    expect(last.numbers.length).toBeLessThan(1 << 17);
    // the used part of the chunk the last rows were packed into
    expect(Array.from(last.numbers)).toEqual(
      Array.from(packed.at(-1)!.packed.numbers.subarray(0, last.numbers.length)),
    );
    expect(packed.at(-1)!.packed.numbers.length).toBe(1 << 17);
    expect(sent[0].packed.numbers).toBe(packed[0].packed.numbers);
    sent.forEach((r, k) => {
      if (k % 97 === 0 || r.packed.numbers === last.numbers)
        expect(jsonText(unpackItems(r.packed))).toBe(jsonText(unpackItems(packed[k].packed)));
    });
    // structured cloning copies the cut chunk, not a whole one
    const clone = structuredClone(sent.slice(-1));
    expect(clone[0].packed.numbers.buffer.byteLength).toBe(last.numbers.length * 8);
  });
});

describe('one item unpacked alone (a click on one of a million)', () => {
  it.each(['roll_traces.jsonl', 'sglang_otel_trace.json'])(
    '%s: each index as unpackItems gives it',
    (name) => {
      for (const original of readOtlp([fixtureSource(resolve(OTLP, name))]).rows) {
        const packed = packRow(original).packed;
        const all = unpackItems(packed);
        all.forEach((item, index) => expect(unpackItem(packed, index)).toEqual(item));
        expect(unpackItem(packed, all.length)).toBeUndefined();
        expect(unpackItem(packed, -1)).toBeUndefined();
        expect(unpackItem(packed, 0.5)).toBeUndefined();
      }
    },
  );

  it('every item of every slime dump, PD views and attrs included', () => {
    for (const name of dumps) {
      for (const original of slimeRows(resolve(SLIME, name))) {
        const packed = packRow(original).packed;
        original.items.forEach((item, index) => expect(unpackItem(packed, index)).toEqual(item));
      }
    }
  });
});

describe('the cursor reads what the store needs without making items', () => {
  it.each(dumps)('%s: state, times, lane, depth, ids, PD role and extras of every item', (name) => {
    const cursor = new PackedItemCursor();
    for (const original of slimeRows(resolve(SLIME, name))) {
      const seen: unknown[] = [];
      cursor.reset(packRow(original).packed);
      while (cursor.next()) {
        seen.push([
          cursor.state,
          cursor.name,
          cursor.start,
          cursor.displayEnd,
          cursor.lane,
          cursor.depth,
          cursor.spanId,
          cursor.parentSpanId,
          cursor.pdRole,
        ]);
      }
      expect(seen).toEqual(
        original.items.map((i) => [
          i.state,
          i.name,
          i.type === 'span' ? i.start_ts : i.ts,
          i.type === 'span' ? i.display_end_ts : i.ts,
          i.lane,
          i.depth,
          i.span_id,
          i.parent_span_id,
          i.type === 'span' ? (i.pd?.role ?? null) : null,
        ]),
      );
    }
  });

  const expectAttrsInPlace = (rows: Row[]) => {
    const cursor = new PackedItemCursor();
    for (const original of rows) {
      cursor.reset(packRow(original).packed);
      for (const item of original.items) {
        cursor.next();
        const sections =
          item.type === 'span' ? [item.attrs.start_attrs, item.attrs.end_attrs] : [item.attrs];
        expect(cursor.sectionCount).toBe(sections.length);
        sections.forEach((attrs, s) => {
          expect(cursor.sectionKeys(s)).toEqual(Object.keys(attrs));
          const values = cursor.sectionKeys(s).map((_key, k) => cursor.attrAt(s, k));
          expect(values).toEqual(Object.values(attrs));
        });
      }
    }
  };

  it.each(['roll_traces.jsonl', 'sglang_otel_trace.json'])(
    '%s: every attr of every item by section and index, as the item has it',
    (name) => expectAttrsInPlace(readOtlp([fixtureSource(resolve(OTLP, name))]).rows),
  );

  it.each(dumps)('%s: every attr of every item by section and index', (name) =>
    expectAttrsInPlace(slimeRows(resolve(SLIME, name))),
  );

  it('OTLP extras: errors, links and missing parents', () => {
    const rows = readOtlp([fixtureSource(resolve(OTLP, 'roll_traces.jsonl'))]).rows;
    const cursor = new PackedItemCursor();
    for (const original of rows) {
      const extras: unknown[] = [];
      cursor.reset(packRow(original).packed);
      while (cursor.next())
        extras.push([cursor.extra('error'), cursor.extra('links'), cursor.extra('service')]);
      expect(extras).toEqual(original.items.map((i) => [i.error, i.links, i.service]));
    }
  });
});

describe("an item's extras", () => {
  // each extra with a value of its own: packed in one order, named in it again when unpacked
  const extras = {
    service: 'rollout-service',
    otel: { kind: 'SPAN_KIND_SERVER', scope: 'sglang' },
    lane_label: 'scheduler thread 3',
    error: true,
    missing_parent: true,
    links: [{ trace_id: 't1', span_id: 's1', dangling: false }],
    category: 'communication',
  };
  const keys = Object.keys(extras) as (keyof typeof extras)[];

  it('come back each by its own name, alone, in any company, and all at once', () => {
    const items: RowItem[] = [span({ name: 'bare', start_ts: 0 })];
    keys.forEach((key, k) => {
      items.push(span({ name: `only ${key}`, start_ts: k, [key]: extras[key] }));
      // with the next one round (the last with the first): two extras of different bits
      const next = keys[(k + 1) % keys.length];
      items.push(
        span({ name: `${key} and ${next}`, start_ts: k, [key]: extras[key], [next]: extras[next] }),
      );
    });
    items.push(span({ name: 'every extra', start_ts: 9, ...extras }));
    // by value: these hand-made items' keys are in no format's order
    const original = row({ row_id: 0, start: 0, end: 10, items });
    const packed = packRow(original);
    expect(unpackRow(packed)).toEqual(original);
    const cursor = new PackedItemCursor().reset(packed.packed);
    const last: Record<string, unknown> = {};
    while (cursor.next()) for (const key of keys) last[key] = cursor.extra(key);
    expect(last).toEqual(extras);
  });
});

describe('a span name whose attrs change from row to row', () => {
  // a request aborted or not, PD or not: one name, its start and end attrs of several shapes
  // in turn; more shapes than a name keeps to look through (8) before it makes a key
  const shapes: [Attrs, Attrs][] = [];
  for (let k = 0; k < 11; k++) {
    const start: Attrs = { max_new_tokens: 8192 };
    const end: Attrs = { finish_reason: k % 2 === 0 ? 'stop' : 'abort' };
    for (let j = 0; j < k; j++) end[`pd_phase_${j}_duration`] = j / 10;
    if (k % 3 === 0) end.e2e_latency = 'n/a';
    shapes.push([start, end]);
  }
  const rows = Array.from({ length: 60 }, (_, i) => {
    const [start_attrs, end_attrs] = shapes[(i * 7) % shapes.length];
    return row({
      row_id: i,
      start: i,
      end: i + 1,
      items: [
        span({
          name: 'sglang_generate',
          start_ts: i,
          span_id: `s${i}`,
          attrs: { start_attrs: { ...start_attrs }, end_attrs: { ...end_attrs } },
        }),
      ],
    });
  });

  it('gives every row back, whichever shape it had', () => {
    const packer = new ItemPacker();
    for (const original of rows)
      expect(unpackRow(packer.packRow(original)), `row ${original.row_id}`).toEqual(original);
  });

  it('keeps one head per shape the name had, however they alternate', () => {
    const packer = new ItemPacker();
    let heads = 0;
    for (const r of rows)
      heads = (packer.packRow(r).packed.table as { heads: unknown[] }).heads.length;
    expect(heads).toBe(shapes.length);
  });
});
