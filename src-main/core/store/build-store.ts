import { minOf, maxOf } from '../model/extent';
import type { Row } from '../model/row';
import { rewardValue } from '../model/reward-value';
import { buildSampleDurations } from './sample-duration';

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
  /** each row's own duration, without spans its group's rows share (sample-duration.ts) */
  rowSampleDuration: Float64Array;
  rowsBySpanName: Map<number, Int32Array>;
  rowsByStatus: Map<number, Int32Array>;
  rowsBySource: Map<number, Int32Array>;
  /** row_id -> row index */
  rowIndexById: Map<number, number>;
  rows: Row[];
}

const num = (v: unknown) =>
  typeof v === 'number' ? v : typeof v === 'string' && v.trim() !== '' ? Number(v) : NaN;

/** stores built so far in this thread: each store's version */
let storesBuilt = 0;

export function buildStore(input: { rows: Row[] }): TraceStore {
  const rows = input.rows;
  const strings: string[] = [];
  const stringIds = new Map<string, number>();
  const intern = (s: string | null) => {
    if (s === null) return -1;
    let id = stringIds.get(s);
    if (id === undefined) {
      id = strings.push(s) - 1;
      stringIds.set(s, id);
    }
    return id;
  };
  const itemCount = rows.reduce((n, r) => n + r.items.length, 0);
  const globalStartSec = rows.length === 0 ? 0 : minOf(rows, (r) => r.start);
  const globalEndSec = rows.length === 0 ? 0 : maxOf(rows, (r) => r.end);
  const s: TraceStore = {
    version: ++storesBuilt,
    globalStartSec,
    globalEndSec,
    rowCount: rows.length,
    itemCount,
    strings,
    itemStart: new Float64Array(itemCount),
    itemEnd: new Float64Array(itemCount),
    itemRow: new Int32Array(itemCount),
    itemLane: new Int32Array(itemCount),
    itemDepth: new Int32Array(itemCount),
    itemName: new Int32Array(itemCount),
    itemKind: new Uint8Array(itemCount),
    itemFlags: new Uint16Array(itemCount),
    itemParent: new Int32Array(itemCount),
    rowItemOffset: new Int32Array(rows.length + 1),
    rowId: new Int32Array(rows.length),
    rowStart: new Float64Array(rows.length),
    rowEnd: new Float64Array(rows.length),
    rowLaneCount: new Int32Array(rows.length),
    rowOpenCount: new Int32Array(rows.length),
    rowReward: new Float64Array(rows.length),
    rowSampleIndex: new Float64Array(rows.length),
    rowGroup: new Float64Array(rows.length),
    rowAttempt: new Float64Array(rows.length),
    rowStatus: new Int32Array(rows.length),
    rowSource: new Int32Array(rows.length),
    rowSampleDuration: buildSampleDurations(rows),
    rowsBySpanName: new Map(),
    rowsByStatus: new Map(),
    rowsBySource: new Map(),
    rowIndexById: new Map(),
    rows,
  };
  const byName = new Map<number, number[]>();
  const byStatus = new Map<number, number[]>();
  const bySource = new Map<number, number[]>();
  const index = (map: Map<number, number[]>, key: number, r: number) => {
    const list = map.get(key);
    if (!list) map.set(key, [r]);
    else if (list[list.length - 1] !== r) list.push(r);
  };
  let i = 0;
  rows.forEach((row, r) => {
    s.rowItemOffset[r] = i;
    s.rowId[r] = row.row_id;
    s.rowIndexById.set(row.row_id, r);
    s.rowStart[r] = row.start - globalStartSec;
    s.rowEnd[r] = row.end - globalStartSec;
    s.rowLaneCount[r] = row.lane_count;
    s.rowOpenCount[r] = row.open_span_count;
    s.rowReward[r] = rewardValue(row.reward) ?? NaN;
    s.rowSampleIndex[r] = num(row.sample_index);
    s.rowGroup[r] = num(row.group_index);
    s.rowAttempt[r] = num(row.attempt);
    s.rowStatus[r] = intern(row.status);
    s.rowSource[r] = intern(row.source);
    index(byStatus, s.rowStatus[r], r);
    index(bySource, s.rowSource[r], r);
    const spanIndex = new Map<string, number>();
    row.items.forEach((item, k) => {
      if (item.type === 'span' && item.span_id) spanIndex.set(item.span_id, k);
    });
    row.items.forEach((item) => {
      const isSpan = item.type === 'span';
      s.itemStart[i] = (isSpan ? item.start_ts : item.ts) - globalStartSec;
      s.itemEnd[i] = (isSpan ? item.display_end_ts : item.ts) - globalStartSec;
      s.itemRow[i] = r;
      s.itemLane[i] = item.lane;
      s.itemDepth[i] = item.depth;
      s.itemName[i] = intern(item.name);
      s.itemKind[i] = isSpan
        ? ITEM_KIND.span
        : item.type === 'event'
          ? ITEM_KIND.event
          : ITEM_KIND.orphan;
      let flags = 0;
      if (isSpan && item.state === 'open_span') flags |= ITEM_FLAG.ongoing;
      if (item.type === 'orphan_end') flags |= ITEM_FLAG.orphan;
      if (item.error) flags |= ITEM_FLAG.error;
      if (isSpan && item.pd?.role === 'prefill') flags |= ITEM_FLAG.pdPrefill;
      if (isSpan && item.pd?.role === 'decode') flags |= ITEM_FLAG.pdDecode;
      if (item.missing_parent) flags |= ITEM_FLAG.missingParent;
      s.itemFlags[i] = flags;
      s.itemParent[i] =
        item.parent_span_id !== null ? (spanIndex.get(item.parent_span_id) ?? -1) : -1;
      index(byName, s.itemName[i], r);
      i++;
    });
  });
  s.rowItemOffset[rows.length] = i;
  for (const [map, target] of [
    [byName, s.rowsBySpanName],
    [byStatus, s.rowsByStatus],
    [bySource, s.rowsBySource],
  ] as const) {
    for (const [key, list] of map) target.set(key, Int32Array.from(new Set(list)));
  }
  return Object.freeze(s);
}
