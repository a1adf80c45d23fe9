import type { RowQuery } from '../api/trace-api';
import type { SortKey } from '../api/sort-keys';
import type { TraceStore } from './build-store';
import { searchTextsOf } from './search-text';
import { sampleDurations } from './sample-duration';
import { ascendingIndexes, identityOrder } from './radix-order';
import { spanNamePatternRegExp } from '../model/span-name-pattern';

/**
 * Filters and sorts the rows of a store into display order, returning row ids. Works on the
 * typed columns and indexes only (text search on a lazily built per-row text).
 */
export function queryRows(store: TraceStore, query: RowQuery): Int32Array {
  const n = store.rowCount;
  let keep: Uint8Array | null = null;
  // each list of allowed rows (index lists, typed or not) straight into a mask: no copies
  const restrict = (...allowed: ArrayLike<number>[]) => {
    const mask = new Uint8Array(n);
    for (const rows of allowed) for (let i = 0; i < rows.length; i++) mask[rows[i]] = 1;
    if (keep) for (let r = 0; r < n; r++) keep[r] &= mask[r];
    else keep = mask;
  };
  const f = query.filter ?? {};
  const rowsOf = (index: ReadonlyMap<number, Int32Array>, names: string[]) =>
    names.flatMap((name) => {
      // -1 is no name, where rows without one are kept: an unknown name matches nothing
      const id = store.strings.indexOf(name);
      const rows = id >= 0 ? index.get(id) : undefined;
      return rows ? [rows] : [];
    });
  if (f.statuses && f.statuses.length > 0) {
    restrict(...rowsOf(store.rowsByStatus, f.statuses));
  }
  if (f.sources && f.sources.length > 0) {
    restrict(...rowsOf(store.rowsBySource, f.sources));
  }
  if (f.spanName) {
    restrict(rowsWithSpanName(store, f.spanName));
  }
  if (f.rowIds) {
    restrict(
      f.rowIds.map((id) => store.rowIndexById.get(id)).filter((r): r is number => r !== undefined),
    );
  }
  const attempts = f.attempts && f.attempts.length > 0 ? new Set(f.attempts) : null;
  const text = f.text?.trim().toLowerCase() ?? '';
  const textMatches = text ? rowsMatchingText(store, text) : null;
  const mask = keep as Uint8Array | null;
  const filtered =
    mask !== null ||
    attempts !== null ||
    text !== '' ||
    f.rewardMin !== undefined ||
    f.rewardMax !== undefined;
  const passes = (r: number) => {
    if (mask && !mask[r]) return false;
    if (textMatches && !textMatches[r]) return false;
    if (attempts && !attempts.has(store.rowAttempt[r])) return false;
    if (f.rewardMin !== undefined && !(store.rowReward[r] >= f.rewardMin)) return false;
    if (f.rewardMax !== undefined && !(store.rowReward[r] <= f.rewardMax)) return false;
    return true;
  };
  // the whole store's order for this key, kept: a filter only picks rows out of it
  const order = sortedRows(store, query.sort, query.descending === true);
  if (!filtered) {
    const out = new Int32Array(n);
    for (let k = 0; k < n; k++) out[k] = store.rowId[order[k]];
    return out;
  }
  const kept = new Int32Array(n);
  let count = 0;
  for (let k = 0; k < n; k++) if (passes(order[k])) kept[count++] = store.rowId[order[k]];
  return kept.slice(0, count);
}

/** Per store, the last text searched and which rows matched it (1 = match), by row index. */
const lastSearch = new WeakMap<TraceStore, { text: string; matches: Uint8Array }>();

/**
 * Which rows' search texts hold `text` (search-text.ts searches their bytes in row order).
 * Typing on from the last search (its text inside the new one) tests only the rows that
 * matched it; the same text again is the kept answer.
 */
function rowsMatchingText(store: TraceStore, text: string): Uint8Array {
  const last = lastSearch.get(store);
  if (last && last.text === text) return last.matches;
  const matches = new Uint8Array(store.rowCount);
  const narrowing = last && text.includes(last.text) ? last.matches : null;
  searchTextsOf(store).matchInto(text, matches, narrowing);
  lastSearch.set(store, { text, matches });
  return matches;
}

/** Per store, row indexes in display order by (sort key, direction), computed once each. */
const orders = new WeakMap<TraceStore, Map<string, Int32Array>>();

/**
 * Every row of the store in the order of `sort`: rows without a value (NaN) last in either
 * direction, ties by row id. A filter keeps this order, so it is sorted once per key and kept;
 * the descending order is made from the ascending one in one pass, not sorted again.
 */
export function sortedRows(store: TraceStore, sort: SortKey, descending: boolean): Int32Array {
  let byKey = orders.get(store);
  if (!byKey) {
    byKey = new Map();
    orders.set(store, byKey);
  }
  const id = `${sort}:${descending ? 'desc' : 'asc'}`;
  let order = byKey.get(id);
  if (order) return order;
  const values = keyValues(store, sort);
  order = descending
    ? reversedByValue(sortedRows(store, sort, false), values)
    : ascendingOrder(store, values);
  byKey.set(id, order);
  return order;
}

function keyValues(store: TraceStore, sort: SortKey): Float64Array {
  const key = sortKey(store, sort);
  const values = new Float64Array(store.rowCount);
  for (let r = 0; r < values.length; r++) values[r] = key(r);
  return values;
}

/** Row indexes by value, rows without one (NaN) last, ties by row id. */
function ascendingOrder(store: TraceStore, values: Float64Array): Int32Array {
  return ascendingIndexes(values, rowIdOrder(store));
}

/** Row indexes by row id (ties, which no format makes, by index): usually 0..n-1. */
function rowIdOrder(store: TraceStore): Int32Array {
  const rowId = store.rowId;
  const n = store.rowCount;
  let inOrder = true;
  for (let r = 1; r < n && inOrder; r++) inOrder = rowId[r - 1] < rowId[r];
  if (inOrder) return identityOrder(n);
  return ascendingIndexes(Float64Array.from(rowId.subarray(0, n)), identityOrder(n));
}

/**
 * The descending order from the ascending one: runs of equal values in reverse, each run kept
 * as it was (ties by row id), and the rows without a value still last.
 */
function reversedByValue(ascending: Int32Array, values: Float64Array): Int32Array {
  const n = ascending.length;
  const out = new Int32Array(n);
  // rows without a value sit at the end of the ascending order: they stay there
  let valued = n;
  while (valued > 0 && values[ascending[valued - 1]] !== values[ascending[valued - 1]]) valued--;
  out.set(ascending.subarray(valued), valued);
  let at = 0;
  for (let end = valued; end > 0;) {
    let start = end - 1;
    while (start > 0 && values[ascending[start - 1]] === values[ascending[end - 1]]) start--;
    out.set(ascending.subarray(start, end), at);
    at += end - start;
    end = start;
  }
  return out;
}

/** What each sort key reads: a Record, so a new SortKey does not compile until it is here. */
const SORT_VALUES: Record<SortKey, (store: TraceStore) => (r: number) => number> = {
  row_id: (store) => (r) => store.rowId[r],
  start: (store) => (r) => store.rowStart[r],
  duration: (store) => {
    const durations = sampleDurations(store);
    return (r) => durations[r];
  },
  group_duration: (store) => (r) => store.rowEnd[r] - store.rowStart[r],
  reward: (store) => (r) => store.rowReward[r],
  lane_count: (store) => (r) => store.rowLaneCount[r],
  ongoing: (store) => (r) => store.rowOpenCount[r],
  sample_index: (store) => (r) => store.rowSampleIndex[r],
  group: (store) => (r) => store.rowGroup[r],
};

/** Every key the store sorts by (SORT_VALUES' keys: each SortKey of the contract). */
export const STORE_SORT_KEYS = Object.keys(SORT_VALUES) as SortKey[];

function sortKey(store: TraceStore, sort: SortKey): (r: number) => number {
  return (SORT_VALUES[sort] ?? SORT_VALUES.row_id)(store);
}

/**
 * Rows with a span or event of this name; a name that is no span's but holds `*` is a pattern
 * (the span-name menu groups `decode Req 1a2b3c4d`, ... as `decode Req *`): each `*` stands
 * for any non-empty text.
 */
function rowsWithSpanName(store: TraceStore, name: string): number[] {
  const id = store.strings.indexOf(name);
  if (id >= 0 && store.rowsBySpanName.has(id)) return Array.from(store.rowsBySpanName.get(id)!);
  if (!name.includes('*')) return [];
  const pattern = spanNamePatternRegExp(name);
  const rows = new Set<number>();
  for (const [nameId, rowList] of store.rowsBySpanName) {
    if (pattern.test(store.strings[nameId])) for (const r of rowList) rows.add(r);
  }
  return [...rows];
}
