import { describe, expect, it } from 'vitest';
import { SpanIds } from '../../../src-main/core/rows/span-ids';
import { ItemPacker, PackedItemCursor, unpackRow } from '../../../src-main/core/rows/packed-items';
import { buildStore } from '../../../src-main/core/store/build-store';
import type { SpanItem } from '../../../src-main/core/model/row';
import { point, row, span } from '../store/hand-rows';

// A file's span ids kept by number: short lowercase hex ids as packed digits outside the heap,
// anything else as it was. Every id must come back exactly as it went in.

describe('span ids by number', () => {
  it('every id comes back as it was added, hex or not', () => {
    const ids = new SpanIds();
    const given: unknown[] = [
      '',
      '0',
      'f',
      '1c04f362cc484a589930455d3c0ab41a',
      'cdc0d3f1dc0699bb',
      '0123456789abcdef0123456789abcde',
      '1C04F362', // uppercase: not packed, so it keeps its case
      '1c04f362cc484a589930455d3c0ab41a0', // 33 digits
      'span-7',
      'ü',
      '12345',
      7,
      { odd: true },
    ];
    // enough ids to fill more than one chunk of records
    for (let i = 0; i < 70_000; i++) given.push(i.toString(16).padStart(i % 33, '0'));
    const numbers = given.map((id) => ids.add(id));
    expect(new Set(numbers).size).toBe(given.length);
    numbers.forEach((n, k) => expect(ids.get(n)).toBe(given[k]));
    expect(numbers.map((n) => ids.isTruthy(n)).slice(0, 3)).toEqual([false, true, true]);
    expect(ids.isTruthy(numbers[given.indexOf(7)])).toBe(true);
  });

  it('a row names each id once: a span and its children share the number; the cursor makes the text', () => {
    const parentId = '1c04f362cc484a589930455d3c0ab41a';
    const items = [
      span({
        name: 'generate_and_rm',
        start_ts: 0,
        end_ts: 5,
        display_end_ts: 5,
        span_id: parentId,
      }),
      span({
        name: 'sglang_generate',
        start_ts: 1,
        end_ts: 2,
        display_end_ts: 2,
        span_id: 'cdc0d3f1dc0699bbc66ce6ccf01beddf',
        parent_span_id: parentId,
        parent_span_name: 'generate_and_rm',
      }),
      point({ name: 'tool', ts: 3, span_id: null, parent_span_id: parentId }),
    ];
    const original = row({ row_id: 0, start: 0, end: 5, items });
    const packed = new ItemPacker().packRow(original);
    const cursor = new PackedItemCursor().reset(packed.packed);
    const keys: unknown[][] = [];
    while (cursor.next()) keys.push([cursor.spanIdRef, cursor.parentSpanIdRef]);
    expect(keys[1][1]).toBe(keys[0][0]);
    expect(keys[2][1]).toBe(keys[0][0]);
    expect(keys[2][0]).toBe(-1);
    expect(unpackRow(packed)).toStrictEqual(original);
  });

  it('a row short enough to number its ids and one too long link the same parents', () => {
    // spans in chains of three (a root, its child, a grandchild), then points under the roots;
    // ids repeat across rows, and one root's id is the empty string (never a parent)
    const chains = (count: number) => {
      const items = [];
      for (let c = 0; c < count; c++) {
        const ids = [`${c.toString(16)}a`, `${c.toString(16)}b`, `${c.toString(16)}c`];
        if (c === 1) ids[0] = '';
        ids.forEach((id, depth) =>
          items.push(
            span({
              name: `s${depth}`,
              start_ts: c,
              end_ts: c + 1,
              display_end_ts: c + 1,
              span_id: id,
              parent_span_id: depth > 0 ? ids[depth - 1] : null,
              depth,
              lane: depth,
            }),
          ),
        );
        items.push(point({ name: 'p', ts: c, parent_span_id: ids[0], depth: 1, lane: 1 }));
      }
      return items;
    };
    // 60 ids: more than a row looks through before it keeps them in a map
    const short = row({ row_id: 0, start: 0, end: 20, items: chains(20) });
    const long = row({ row_id: 1, start: 0, end: 2000, items: chains(2000) });
    expect(long.items.length).toBeGreaterThan(4096);
    const rows = [short, long];
    const packed = new ItemPacker();
    const packedRows = rows.map((r) => packed.packRow(r));
    packedRows.forEach((p, r) => expect(unpackRow(p)).toStrictEqual(rows[r]));
    const store = buildStore({ rows: packedRows });
    // each item's parent: the span its parent id names in its row (none for the empty id)
    const expected = rows.flatMap((r) =>
      r.items.map((item) => {
        const parent = item.parent_span_id;
        if (!parent) return -1;
        let at = -1;
        r.items.forEach((other, k) => {
          if (other.type === 'span' && other.span_id === parent) at = k;
        });
        return at;
      }),
    );
    expect(Array.from(store.itemParent.subarray(0, store.itemCount))).toEqual(expected);
    expect(expected.filter((p) => p >= 0).length).toBeGreaterThan(6000);
  });

  it('counted ids (a prefix and a counter) come back as text, beside records, across ranges', () => {
    const ids = new SpanIds();
    const hex = ids.add('1c04f362');
    const r0 = ids.counted('r0:', 5)!;
    const plain = ids.counted('', 70_000)!;
    const r1 = ids.counted('r1:', 3)!;
    const other = ids.add('span-7');
    expect(ids.get(hex)).toBe('1c04f362');
    expect(ids.get(other)).toBe('span-7');
    expect([0, 4].map((n) => ids.get(r0 + n))).toEqual(['r0:0', 'r0:4']);
    expect([0, 10, 69_999].map((n) => ids.get(plain + n))).toEqual(['0', '10', '69999']);
    expect(ids.get(r1 + 2)).toBe('r1:2');
    expect(ids.isTruthy(plain)).toBe(true);
    // ranges never meet one another or the records' numbers
    expect(new Set([hex, other, r0, r0 + 4, plain, plain + 69_999, r1]).size).toBe(7);
    // a structured clone (a helper's rows) reads them back once revived
    const revived = SpanIds.revive(structuredClone(ids));
    expect(revived.get(r1 + 1)).toBe('r1:1');
    expect(revived.get(other)).toBe('span-7');
  });

  it('an id a counted range names takes its number; any other id is added', () => {
    const ids = new SpanIds();
    const r0 = ids.counted('r0:', 5)!;
    const plain = ids.counted('', 100)!;
    const r10 = ids.counted('r10:', 3)!;
    expect(ids.number('r0:4')).toBe(r0 + 4);
    expect(ids.number('r10:2')).toBe(r10 + 2);
    expect(ids.number('99')).toBe(plain + 99);
    expect(ids.number('0')).toBe(plain);
    // past a range's count, written another way (a leading zero, a sign, a space), or of no
    // range: a number of its own, which gives back the text as it was
    for (const text of ['r0:5', 'r0:04', 'r0:-1', 'r0: 1', 'r0:', 'r1:0', '100', '1e2', 'x']) {
      const n = ids.number(text);
      expect(n < r0 || n >= r10 + 3, text).toBe(true);
      expect(ids.get(n)).toBe(text);
    }
    // not a string: added as it is
    expect(ids.get(ids.number(7))).toBe(7);
  });

  it("a row packed with counted ids unpacks and nests as one packed with the ids' text", () => {
    // a root, its children and grandchildren on a counter, as a Chrome trace's slices are
    const build = (count: number) => {
      const items: SpanItem[] = [];
      const parents: number[] = [];
      for (let n = 0; n < count; n++) {
        const parent = n === 0 ? -1 : n < 4 ? 0 : Math.floor(n / 4);
        parents.push(parent);
        items.push(
          span({
            name: `s${n % 3}`,
            start_ts: n,
            end_ts: n + 1,
            display_end_ts: n + 1,
            span_id: `r3:${n}`,
            parent_span_id: parent < 0 ? null : `r3:${parent}`,
          }),
        );
      }
      return { items, parents };
    };
    for (const count of [50, 5000]) {
      const { items, parents } = build(count);
      const original = row({ row_id: 0, start: 0, end: count, items });
      const packer = new ItemPacker();
      const base = packer.countedIds('r3:', count)!;
      // every id counted: even the long row keeps its refs as numbers
      packer.begin(items.length, true);
      items.forEach((item, n) => {
        const parent = parents[n];
        packer.add(
          { ...item, span_id: null, parent_span_id: null },
          base + n,
          parent < 0 ? packer.noSpanRef : base + parent,
        );
      });
      const { items: _items, ...fields } = original;
      void _items;
      const packed = { ...fields, packed: packer.end() };
      expect(packed.packed.refs).toBeInstanceOf(Int32Array);
      expect(unpackRow(packed)).toStrictEqual(original);
      expect(Array.from(buildStore({ rows: [packed] }).itemParent.subarray(0, count))).toEqual(
        parents,
      );
    }
  });
});
