import { resolve } from 'node:path';
import { packRows } from '../../../src-main/core/rows/packed-items';
import { describe, expect, it } from 'vitest';
import {
  buildStore,
  GrowingRowsStore,
  StoreBuilder,
  type TraceStore,
} from '../../../src-main/core/store/build-store';
import type { PackedRow, Row } from '../../../src-main/core/model/row';
import { RowIndexById, RowsByKey } from '../../../src-main/core/store/row-index';
import { SLIME, readJson } from '../../support/fixtures';

// The stores shown while a file is read grow with its rows (GrowingRowsStore): each must equal
// the store built at once from the same rows, and stay as it was when more rows come in.
const fixtureRows = () =>
  packRows(readJson<{ rows: Row[] }>(resolve(SLIME, 'rollout_agentic.pt.expected.json')).rows);

/** every column, index and figure of a store, as plain values (not its version: its own) */
function plain(store: TraceStore) {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(store)) {
    if (key === 'version') continue;
    if (ArrayBuffer.isView(value)) out[key] = Array.from(value as Float64Array);
    // the store's indexes are read-only Maps made when asked: compared by what they hold
    else if (value instanceof Map || value instanceof RowsByKey || value instanceof RowIndexById)
      out[key] = [...value].map(([k, v]) => [
        k,
        ArrayBuffer.isView(v) ? Array.from(v as Int32Array) : v,
      ]);
    else out[key] = value;
  }
  return out;
}

describe('stores of rows that grow at their end', () => {
  it('taken in uneven parts, the store equals the one built at once, at every step', () => {
    const rows = fixtureRows();
    expect(rows.length).toBeGreaterThan(6);
    const growing = new GrowingRowsStore();
    const list: PackedRow[] = [];
    for (const end of [1, 2, 5, rows.length]) {
      list.push(...rows.slice(list.length, end));
      const store = growing.storeOf(list);
      expect(plain(store)).toEqual(plain(buildStore({ rows: list.slice() })));
    }
  });

  it('the last store hands over the columns: equal to a copying one, earlier stores unchanged, nothing added after', () => {
    const rows = fixtureRows();
    const growing = new GrowingRowsStore();
    const half = growing.storeOf(rows.slice(0, 3));
    const halfBefore = plain(half);
    const copied = plain(buildStore({ rows: rows.slice() }));
    const builder = new StoreBuilder();
    builder.add(rows);
    const copying = builder.store();
    const last = builder.lastStore();
    expect(plain(last)).toEqual(copied);
    expect(plain(copying)).toEqual(copied);
    // the last store's times are the builder's own arrays made relative in place
    expect(last.itemStart.buffer).not.toBe(copying.itemStart.buffer);
    expect(() => builder.add(rows.slice(0, 1))).toThrow(/last store/);
    expect(() => builder.store()).toThrow(/last store/);
    // the growing store's last store: every row, and the preview before it is as it was
    expect(plain(growing.lastStoreOf(rows))).toEqual(copied);
    expect(plain(half)).toEqual(halfBefore);
    // and a later call starts over
    expect(plain(growing.storeOf(rows.slice(0, 2)))).toEqual(
      plain(buildStore({ rows: rows.slice(0, 2) })),
    );
  });

  it('a row that starts earlier moves the origin: every time column is relative to it', () => {
    const rows = fixtureRows();
    const latest = rows.reduce((a, b) => (b.start > a.start ? b : a));
    const earliest = rows.reduce((a, b) => (b.start < a.start ? b : a));
    const builder = new StoreBuilder();
    builder.add([latest]);
    const before = builder.store();
    expect(before.globalStartSec).toBe(latest.start);
    builder.add([earliest]);
    const after = builder.store();
    expect(after.globalStartSec).toBe(earliest.start);
    expect(after.rowStart[0]).toBe(latest.start - earliest.start);
    expect(after.itemStart[0]).toBe(before.itemStart[0] + latest.start - earliest.start);
    expect(plain(after)).toEqual(plain(buildStore({ rows: [latest, earliest] })));
  });

  it('takes each row in once, however many stores are made while the rows grow', () => {
    const reads = new Map<number, number>();
    const counted = fixtureRows().map((row) => {
      const packed = row.packed;
      return Object.defineProperty({ ...row }, 'packed', {
        enumerable: true,
        get: () => {
          reads.set(row.row_id, (reads.get(row.row_id) ?? 0) + 1);
          return packed;
        },
      }) as PackedRow;
    });
    const growing = new GrowingRowsStore();
    const list: PackedRow[] = [];
    for (const end of [2, 4, counted.length]) {
      list.push(...counted.slice(list.length, end));
      growing.storeOf(list);
    }
    // the first rows were read when they came in, as often as the last ones: never again
    const counts = counted.map((row) => reads.get(row.row_id) ?? 0);
    expect(Math.min(...counts)).toBeGreaterThan(0);
    expect(Math.max(...counts)).toBe(Math.min(...counts));
  });

  it('a store already given does not change when more rows come in', () => {
    const rows = fixtureRows();
    const growing = new GrowingRowsStore();
    const list = rows.slice(0, 3);
    const first = growing.storeOf(list);
    const expected = plain(buildStore({ rows: rows.slice(0, 3) }));
    list.push(...rows.slice(3));
    const second = growing.storeOf(list);
    expect(second.version).not.toBe(first.version);
    expect(plain(first)).toEqual(expected);
    expect(first.rowIndexById.size).toBe(3);
    expect(first.rows.length).toBe(3);
  });

  it('keeps at most a quarter more item room than its items, however it grew', () => {
    const rows = fixtureRows();
    const growing = new GrowingRowsStore();
    const list: PackedRow[] = [];
    let store: TraceStore | null = null;
    // the fixture's rows again and again, a few at a time: the columns grow many times
    // (checked after each store past the first columns' 1024 items)
    let checked = 0;
    for (let round = 0; round < 60; round++) {
      list.push(...rows.slice(0, 1 + (round % rows.length)));
      store = growing.storeOf(list);
      const items = store.itemCount;
      if (items <= 1024) continue;
      checked++;
      for (const column of [store.itemLane, store.itemRow, store.itemName, store.itemFlags]) {
        expect(column.length).toBe(items);
        expect(column.buffer.byteLength / column.BYTES_PER_ELEMENT).toBeLessThanOrEqual(
          Math.ceil(items * 1.25),
        );
      }
    }
    expect(checked).toBeGreaterThan(20);
    expect(plain(store!)).toEqual(plain(buildStore({ rows: list.slice() })));
  });

  it('another list (not starting with the rows taken) starts over', () => {
    const rows = fixtureRows();
    const growing = new GrowingRowsStore();
    growing.storeOf(rows.slice(0, 4));
    const other = rows.slice(2);
    expect(plain(growing.storeOf(other))).toEqual(plain(buildStore({ rows: other })));
    // same first row, another last one: not the same list either
    const swapped = [rows[2], ...rows.slice(3).reverse()];
    expect(plain(growing.storeOf(swapped))).toEqual(plain(buildStore({ rows: swapped })));
  });
});
