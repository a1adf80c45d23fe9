import { NumberIndex } from './number-index';
import { sourceText, type PackedRow } from '../model/row';
import { PackedItemCursor } from '../rows/packed-items';
import { rewardValue } from '../model/reward-value';
import { grownColumn } from '../model/grown-column';
import { RowIndexById, RowsByKey, rowsByItemKey, rowsByRowKey } from './row-index';

export const ITEM_KIND = { span: 0, event: 1, orphan: 2 } as const;
export const ITEM_FLAG = {
  ongoing: 1,
  orphan: 2,
  error: 4,
  pdPrefill: 8,
  pdDecode: 16,
  missingParent: 32,
} as const;

/**
 * One file's rows as columns: typed arrays per item and per row, strings interned once, and
 * indexes by span name, status and source. Built once (in the worker), then frozen. The Row
 * objects stay beside it only for what details show (attrs), never for drawing or queries.
 */
export interface TraceStore {
  /**
   * a number no other store built in this thread has: the renderer keeps per-row facts by it
   * (a file read while shown is a new store with each preview)
   */
  version: number;
  globalStartSec: number;
  globalEndSec: number;
  rowCount: number;
  itemCount: number;
  /** links between spans (OTLP links, Chrome flows), counted as the items were taken in */
  linkCount: number;
  strings: string[];
  itemStart: Float64Array;
  itemEnd: Float64Array;
  itemRow: Int32Array;
  itemLane: Int32Array;
  itemDepth: Int32Array;
  itemName: Int32Array;
  itemKind: Uint8Array;
  itemFlags: Uint16Array;
  itemParent: Int32Array;
  /** items of row r are [rowItemOffset[r], rowItemOffset[r + 1]) */
  rowItemOffset: Int32Array;
  rowId: Int32Array;
  rowStart: Float64Array;
  rowEnd: Float64Array;
  rowLaneCount: Int32Array;
  rowOpenCount: Int32Array;
  rowReward: Float64Array;
  rowSampleIndex: Float64Array;
  rowGroup: Float64Array;
  rowAttempt: Float64Array;
  rowStatus: Int32Array;
  rowSource: Int32Array;
  /**
   * spans (each drawn as a bar) per name string id, spans with a category left out; and per
   * category (a GPU kernel's kind) the spans that have one: what a timeline legend counts,
   * counted as the rows were taken in, so a view that fetches rows as they are scrolled to can
   * show the whole file's counts at once
   */
  spansByName: Int32Array;
  spansByCategory: ReadonlyMap<string, number>;
  /** rows by a name of their items, status, source (string ids; -1: none), made when asked */
  rowsBySpanName: ReadonlyMap<number, Int32Array>;
  rowsByStatus: ReadonlyMap<number, Int32Array>;
  rowsBySource: ReadonlyMap<number, Int32Array>;
  /** row_id -> row index, made when asked */
  rowIndexById: ReadonlyMap<number, number>;
  rows: PackedRow[];
}

const num = (v: unknown) =>
  typeof v === 'number' ? v : typeof v === 'string' && v.trim() !== '' ? Number(v) : NaN;

/** stores built so far in this thread: each store's version */
let storesBuilt = 0;

/** The store of a list of rows. */
export function buildStore(input: { rows: readonly PackedRow[] }): TraceStore {
  const builder = new StoreBuilder();
  builder.add(input.rows);
  return builder.lastStore();
}

/**
 * A typed column grown to at least `length`, by a quarter, its values so far kept. A quarter,
 * not double: the stores' item columns are views of these (see `store()`), so what a column
 * holds beyond its items stays allocated as long as the file is open.
 */
function grown<T extends Float64Array | Int32Array | Uint8Array | Uint16Array>(
  column: T,
  length: number,
): T {
  if (length <= column.length) return column;
  return grownColumn(column, Math.max(length, 1024), 1.25);
}

const EMPTY_F64 = new Float64Array(0);
const EMPTY_I32 = new Int32Array(0);

/**
 * A store that grows as rows are added at the end (rows shown while a file is read): each row
 * is taken into the columns once, and `store()` gives a frozen store of the rows so far by
 * copying columns, instead of walking every row's items again for each preview. Times are kept
 * absolute and made relative to the rows' start in `store()` (an earlier row may come later).
 */
export class StoreBuilder {
  private readonly rows: PackedRow[] = [];
  private readonly strings: string[] = [];
  private readonly stringIds = new Map<string, number>();
  private itemCount = 0;
  private linkCount = 0;
  private globalStart = Infinity;
  private globalEnd = -Infinity;
  private itemStartAbs = EMPTY_F64;
  private itemEndAbs = EMPTY_F64;
  private itemRow = EMPTY_I32;
  private itemLane = EMPTY_I32;
  private itemDepth = EMPTY_I32;
  private itemName = EMPTY_I32;
  private itemKind = new Uint8Array(0);
  private itemFlags = new Uint16Array(0);
  private itemParent = EMPTY_I32;
  private rowItemOffset = EMPTY_I32;
  private rowId = EMPTY_I32;
  private rowStartAbs = EMPTY_F64;
  private rowEndAbs = EMPTY_F64;
  private rowLaneCount = EMPTY_I32;
  private rowOpenCount = EMPTY_I32;
  private rowReward = EMPTY_F64;
  private rowSampleIndex = EMPTY_F64;
  private rowGroup = EMPTY_F64;
  private rowAttempt = EMPTY_F64;
  private rowStatus = EMPTY_I32;
  private rowSource = EMPTY_I32;
  /** spans per name id (those without a category), and per category */
  private spansByName = EMPTY_I32;
  private readonly spansByCategory = new Map<string, number>();
  /** a row's spans by id, to find each item's parent (one map for every row: see add) */
  private readonly spanIndex = new Map<unknown, number>();
  /** the same for a row whose refs are numbers (NumberIndex) */
  private readonly numberIndex = new NumberIndex();
  /** a numbered row's span id numbers by item, -1 for none (kept for every row) */
  private spanKeys = new Int32Array(0);
  /** lastStore() handed the columns over: nothing may be added */
  private spent = false;

  /** rows taken so far */
  get rowCount(): number {
    return this.rows.length;
  }

  /** Whether `rows` begins with the rows taken so far (checked at both ends of them). */
  isStartOf(rows: readonly PackedRow[]): boolean {
    const n = this.rows.length;
    return (
      n <= rows.length &&
      (n === 0 || (rows[0] === this.rows[0] && rows[n - 1] === this.rows[n - 1]))
    );
  }

  private intern(s: string | null): number {
    if (s === null) return -1;
    let id = this.stringIds.get(s);
    if (id === undefined) {
      id = this.strings.push(s) - 1;
      this.stringIds.set(s, id);
    }
    return id;
  }

  /** Takes `rows` (appended after the rows taken before) into the columns. */
  add(rows: readonly PackedRow[]): void {
    if (this.spent) throw new Error('the store builder gave its last store');
    const cursor = new PackedItemCursor();
    const first = this.rows.length;
    const rowTotal = first + rows.length;
    let itemTotal = this.itemCount;
    for (const row of rows) itemTotal += row.packed.count;
    this.growRows(rowTotal);
    this.growItems(itemTotal);
    let i = this.itemCount;
    for (let k = 0; k < rows.length; k++) {
      const row = rows[k];
      const r = first + k;
      this.rows.push(row);
      if (row.start < this.globalStart) this.globalStart = row.start;
      if (row.end > this.globalEnd) this.globalEnd = row.end;
      this.rowItemOffset[r] = i;
      this.rowId[r] = row.row_id;
      this.rowStartAbs[r] = row.start;
      this.rowEndAbs[r] = row.end;
      this.rowLaneCount[r] = row.lane_count;
      this.rowOpenCount[r] = row.open_span_count;
      this.rowReward[r] = rewardValue(row.reward) ?? NaN;
      this.rowSampleIndex[r] = num(row.sample_index);
      this.rowGroup[r] = num(row.group_index);
      this.rowAttempt[r] = num(row.attempt);
      this.rowStatus[r] = this.intern(row.status);
      this.rowSource[r] = this.intern(sourceText(row.source));
      // a span's parent by its id, among the row's spans (items of a row are added together)
      // (ids as the row keeps them: equal ids alike); one map cleared per row, not a map each
      const spanIndex = this.spanIndex;
      spanIndex.clear();
      // a row that numbers its refs has its ids as numbers: found through typed arrays
      const numbered = row.packed.refs instanceof Int32Array;
      const count = row.packed.count;
      // a numbered row's span ids (-1: an item without one) and their bounds, then indexed
      if (numbered && this.spanKeys.length < count) this.spanKeys = new Int32Array(count);
      const spanKeys = this.spanKeys;
      let min = Infinity;
      let max = -Infinity;
      cursor.reset(row.packed);
      for (let n = 0; cursor.next(); n++) {
        const isSpan = cursor.state === 'closed_span' || cursor.state === 'open_span';
        const has = isSpan && cursor.hasSpanId;
        if (!numbered) {
          if (has) spanIndex.set(cursor.spanIdRef, n);
          continue;
        }
        const key = has ? (cursor.spanIdRef as number) : -1;
        spanKeys[n] = key;
        if (key < 0) continue;
        if (key < min) min = key;
        if (key > max) max = key;
      }
      const numberIndex = this.numberIndex;
      if (numbered) {
        numberIndex.reset(count, min, max);
        for (let n = 0; n < count; n++) if (spanKeys[n] >= 0) numberIndex.set(spanKeys[n], n);
      }
      cursor.reset(row.packed);
      while (cursor.next()) {
        const state = cursor.state;
        const isSpan = state === 'closed_span' || state === 'open_span';
        this.itemStartAbs[i] = cursor.start;
        this.itemEndAbs[i] = cursor.displayEnd;
        this.itemRow[i] = r;
        this.itemLane[i] = cursor.lane;
        this.itemDepth[i] = cursor.depth;
        const nameId = this.intern(cursor.name);
        this.itemName[i] = nameId;
        if (isSpan) this.countSpan(nameId, cursor.extra('category'));
        this.itemKind[i] = isSpan
          ? ITEM_KIND.span
          : state === 'point_event'
            ? ITEM_KIND.event
            : ITEM_KIND.orphan;
        let flags = 0;
        if (state === 'open_span') flags |= ITEM_FLAG.ongoing;
        if (state === 'orphan_end') flags |= ITEM_FLAG.orphan;
        if (cursor.extra('error')) flags |= ITEM_FLAG.error;
        this.linkCount += cursor.linkCount();
        if (cursor.pdRole === 'prefill') flags |= ITEM_FLAG.pdPrefill;
        if (cursor.pdRole === 'decode') flags |= ITEM_FLAG.pdDecode;
        if (cursor.extra('missing_parent')) flags |= ITEM_FLAG.missingParent;
        this.itemFlags[i] = flags;
        this.itemParent[i] = numbered
          ? numberIndex.get(cursor.parentSpanIdRef as number)
          : (spanIndex.get(cursor.parentSpanIdRef) ?? -1);
        i++;
      }
    }
    this.itemCount = i;
    this.rowItemOffset[rowTotal] = i;
    this.spanIndex.clear();
  }

  /** A span counted under its category when it has one (as row views carry it), else its name. */
  private countSpan(nameId: number, category: string | undefined): void {
    if (category) {
      this.spansByCategory.set(category, (this.spansByCategory.get(category) ?? 0) + 1);
      return;
    }
    if (nameId >= this.spansByName.length) this.spansByName = grown(this.spansByName, nameId + 1);
    this.spansByName[nameId]++;
  }

  /**
   * A frozen store of the rows taken so far: its own copy of the row columns and indexes, and
   * the item columns as views of the builder's (a store of 1.1M items, and each preview's,
   * copied 30 MB of them; the builder only ever writes after the items taken so far). Times
   * are copies: they are made relative to the rows' start.
   */
  store(): TraceStore {
    return this.frozen(false);
  }

  /**
   * The store of every row, the builder's own columns handed over: times made relative in
   * place and lists not copied, so that the whole file's columns are never held twice (at
   * 100k rows the item times alone are 18 MB, copied at the moment memory peaks). The builder
   * takes nothing after it.
   */
  lastStore(): TraceStore {
    const store = this.frozen(true);
    this.spent = true;
    return store;
  }

  /** `handOver`: the builder's own times (made relative in place) and lists, else copies */
  private frozen(handOver: boolean): TraceStore {
    if (this.spent) throw new Error('the store builder gave its last store');
    const n = this.rows.length;
    const m = this.itemCount;
    const origin = n === 0 ? 0 : this.globalStart;
    const relative = (absolute: Float64Array, length: number) => {
      const out = handOver ? absolute.subarray(0, length) : new Float64Array(length);
      for (let k = 0; k < length; k++) out[k] = absolute[k] - origin;
      return out;
    };
    // a row column handed over as it is when it has no room beyond the rows (the store of a
    // whole file: columns sized once), else a copy of the rows' part
    const rowColumn = <T extends Float64Array | Int32Array>(column: T, length: number): T =>
      handOver && column.length === length ? column : (column.slice(0, length) as T);
    const strings = handOver ? this.strings : this.strings.slice();
    const itemName = this.itemName.subarray(0, m);
    const rowItemOffset = n === 0 ? new Int32Array(1) : rowColumn(this.rowItemOffset, n + 1);
    const rowId = rowColumn(this.rowId, n);
    const rowStatus = rowColumn(this.rowStatus, n);
    const rowSource = rowColumn(this.rowSource, n);
    return Object.freeze({
      version: ++storesBuilt,
      globalStartSec: origin,
      globalEndSec: n === 0 ? 0 : this.globalEnd,
      rowCount: n,
      itemCount: m,
      linkCount: this.linkCount,
      strings,
      itemStart: relative(this.itemStartAbs, m),
      itemEnd: relative(this.itemEndAbs, m),
      itemRow: this.itemRow.subarray(0, m),
      itemLane: this.itemLane.subarray(0, m),
      itemDepth: this.itemDepth.subarray(0, m),
      itemName,
      itemKind: this.itemKind.subarray(0, m),
      itemFlags: this.itemFlags.subarray(0, m),
      itemParent: this.itemParent.subarray(0, m),
      rowItemOffset,
      rowId,
      rowStart: relative(this.rowStartAbs, n),
      rowEnd: relative(this.rowEndAbs, n),
      rowLaneCount: rowColumn(this.rowLaneCount, n),
      rowOpenCount: rowColumn(this.rowOpenCount, n),
      rowReward: rowColumn(this.rowReward, n),
      rowSampleIndex: rowColumn(this.rowSampleIndex, n),
      rowGroup: rowColumn(this.rowGroup, n),
      rowAttempt: rowColumn(this.rowAttempt, n),
      rowStatus,
      rowSource,
      spansByName: handOver ? this.spansByName : this.spansByName.slice(),
      spansByCategory: handOver ? this.spansByCategory : new Map(this.spansByCategory),
      rowsBySpanName: new RowsByKey(rowsByItemKey(itemName, rowItemOffset, n, strings.length)),
      rowsByStatus: new RowsByKey(rowsByRowKey(rowStatus, strings.length)),
      rowsBySource: new RowsByKey(rowsByRowKey(rowSource, strings.length)),
      rowIndexById: new RowIndexById(rowId),
      rows: handOver ? this.rows : this.rows.slice(),
    });
  }

  private growRows(n: number): void {
    this.rowItemOffset = grown(this.rowItemOffset, n + 1);
    this.rowId = grown(this.rowId, n);
    this.rowStartAbs = grown(this.rowStartAbs, n);
    this.rowEndAbs = grown(this.rowEndAbs, n);
    this.rowLaneCount = grown(this.rowLaneCount, n);
    this.rowOpenCount = grown(this.rowOpenCount, n);
    this.rowReward = grown(this.rowReward, n);
    this.rowSampleIndex = grown(this.rowSampleIndex, n);
    this.rowGroup = grown(this.rowGroup, n);
    this.rowAttempt = grown(this.rowAttempt, n);
    this.rowStatus = grown(this.rowStatus, n);
    this.rowSource = grown(this.rowSource, n);
  }

  private growItems(n: number): void {
    this.itemStartAbs = grown(this.itemStartAbs, n);
    this.itemEndAbs = grown(this.itemEndAbs, n);
    this.itemRow = grown(this.itemRow, n);
    this.itemLane = grown(this.itemLane, n);
    this.itemDepth = grown(this.itemDepth, n);
    this.itemName = grown(this.itemName, n);
    this.itemKind = grown(this.itemKind, n);
    this.itemFlags = grown(this.itemFlags, n);
    this.itemParent = grown(this.itemParent, n);
  }
}

/**
 * The stores of a list of rows that grows at its end (FormatOpenOptions.onRows: each call's
 * rows start with the last call's): each store takes in only the rows added since the last.
 */
export class GrowingRowsStore {
  private builder = new StoreBuilder();

  storeOf(rows: readonly PackedRow[]): TraceStore {
    return this.taken(rows).store();
  }

  /** The store of every row (StoreBuilder.lastStore): the next call starts a new builder. */
  lastStoreOf(rows: readonly PackedRow[]): TraceStore {
    const store = this.taken(rows).lastStore();
    this.builder = new StoreBuilder();
    return store;
  }

  /** the builder, with the rows of `rows` it has not taken yet (a new one for another list) */
  private taken(rows: readonly PackedRow[]): StoreBuilder {
    if (!this.builder.isStartOf(rows)) this.builder = new StoreBuilder();
    this.builder.add(rows.slice(this.builder.rowCount));
    return this.builder;
  }
}
