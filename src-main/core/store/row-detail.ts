import type { RowWindow } from '../api/trace-api';
import type { PackedItems } from '../model/row';
import { PackedItemCursor } from '../rows/packed-items';
import { ITEM_KIND, type TraceStore } from './build-store';

/**
 * Rows of more items than this are sent for a window of the timeline, not whole: a GPU rank's
 * row holds a million kernels and ops (3.3 million in a 1 GB trace), and as objects they were a
 * 228 MB answer that took 17 s, or one past V8's string limit that never came.
 */
export const ROW_ITEMS_WHOLE = 20_000;

/** The window a big row is chosen for when the caller names none: the whole row. */
const DEFAULT_PIXELS = 2000;
/** Pixels a window may be asked at: a canvas is never narrower, nor wider (a 2x picture). */
const MIN_PIXELS = 100;
const MAX_PIXELS = 10_000;

/** Which items of a big row are sent, and for what part of the timeline at what resolution. */
export interface RowDetailChoice {
  /** 1 where the row's k-th item is sent */
  kept: Uint8Array;
  /** the stretch of time chosen for (the window and half a window either side) */
  startSec: number;
  endSec: number;
  /** the time one pixel of the window spans: items narrower were sent one per pixel */
  resolutionSec: number;
  /** where the row's items begin, every CHECKPOINT_ITEMS: what is sent is read, not the rest */
  walk: RowWalk;
}

/** A big row's items are read from the nearest of these checkpoints before the ones sent. */
export const CHECKPOINT_ITEMS = 256;

/**
 * What reading a big row in parts needs, made by one walk over it the first time it is asked
 * for and kept while the row is: where every CHECKPOINT_ITEMS-th item begins (the cursor's
 * offsets, in pairs), and per lane the items its name comes from (lane-names.ts), sent
 * whatever the window: its first item, its earliest span and its first with a lane label (-1:
 * none).
 */
export interface RowWalk {
  offsets: Float64Array;
  first: Int32Array;
  earliestSpan: Int32Array;
  labelled: Int32Array;
}

const walks = new WeakMap<PackedItems, RowWalk>();

function rowWalkOf(store: TraceStore, r: number, lanes: number): RowWalk {
  const packed = store.rows[r].packed;
  const kept = walks.get(packed);
  if (kept) return kept;
  const base = store.rowItemOffset[r];
  const count = packed.count;
  const offsets = new Float64Array(2 * Math.ceil(count / CHECKPOINT_ITEMS));
  const first = new Int32Array(lanes).fill(-1);
  const earliestSpan = new Int32Array(lanes).fill(-1);
  const labelled = new Int32Array(lanes).fill(-1);
  let unlabelled = lanes;
  const { itemLane, itemKind, itemStart } = store;
  const item = new PackedItemCursor().reset(packed);
  for (let k = 0; k < count; k++) {
    if (k % CHECKPOINT_ITEMS === 0) {
      const [n, f] = item.offsets();
      offsets[(2 * k) / CHECKPOINT_ITEMS] = n;
      offsets[(2 * k) / CHECKPOINT_ITEMS + 1] = f;
    }
    item.next();
    const i = base + k;
    const lane = itemLane[i];
    if (lane < 0 || lane >= lanes) continue;
    if (first[lane] < 0) first[lane] = k;
    if (
      itemKind[i] === ITEM_KIND.span &&
      (earliestSpan[lane] < 0 || itemStart[i] < itemStart[base + earliestSpan[lane]])
    )
      earliestSpan[lane] = k;
    if (unlabelled > 0 && labelled[lane] < 0 && item.extra('lane_label')) {
      labelled[lane] = k;
      unlabelled--;
    }
  }
  const walk = { offsets, first, earliestSpan, labelled };
  walks.set(packed, walk);
  return walk;
}

/**
 * `cursor` made to read item `k` of a big row next: from where it is when `k` is near ahead,
 * else from the last checkpoint before `k`.
 */
export function seekItem(
  cursor: PackedItemCursor,
  packed: PackedItems,
  walk: RowWalk,
  k: number,
): void {
  if (k < cursor.position || k - cursor.position >= CHECKPOINT_ITEMS) {
    const c = Math.floor(k / CHECKPOINT_ITEMS);
    cursor.seek(packed, c * CHECKPOINT_ITEMS, walk.offsets[2 * c], walk.offsets[2 * c + 1]);
  }
  while (cursor.position < k) cursor.next();
}

/**
 * The items of row `r` that draw the window as all of them would: every item at least a pixel
 * wide; of narrower ones, per lane, depth and pixel the longest (the pixel is painted either
 * way, and the longest is what a click there most likely means). Also, per lane, the items its
 * name comes from (rowWalkOf's, made once). Half a window either side is chosen too, so a pan
 * shows bars at once. Linear in the row's items, reading the store's columns (the row's items
 * themselves once, the first time: rowWalkOf).
 */
export function chooseRowItems(
  store: TraceStore,
  r: number,
  window: RowWindow | null,
): RowDetailChoice {
  const base = store.rowItemOffset[r];
  const n = store.rowItemOffset[r + 1] - base;
  let from = window?.startSec ?? store.rowStart[r];
  let to = window?.endSec ?? store.rowEnd[r];
  // an empty or endless window (a caller's mistake) is the whole row's
  if (!(to > from) || !Number.isFinite(to - from)) {
    from = store.rowStart[r];
    to = Math.max(store.rowEnd[r], from + 1e-9);
  }
  const pixels = Math.min(MAX_PIXELS, Math.max(MIN_PIXELS, window?.pixels ?? DEFAULT_PIXELS));
  const resolutionSec = (to - from) / pixels;
  const lo = from - (to - from) / 2;
  const hi = to + (to - from) / 2;
  const buckets = Math.ceil((hi - lo) / resolutionSec) + 1;
  const kept = new Uint8Array(n);
  const { itemStart, itemEnd, itemLane, itemDepth } = store;
  const lanes = Math.max(1, store.rowLaneCount[r]);
  // the longest narrow item per (lane, depth) and pixel: a table of pixels per pair
  const pairs = new Map<number, Int32Array>();
  let lastKey = NaN;
  let lastTable: Int32Array | null = null;
  for (let k = 0; k < n; k++) {
    const i = base + k;
    const start = itemStart[i];
    const end = itemEnd[i];
    if (end < lo || start > hi) continue;
    if (end - start >= resolutionSec) {
      kept[k] = 1;
      continue;
    }
    const key = itemLane[i] * 0x10000 + itemDepth[i];
    if (key !== lastKey) {
      lastKey = key;
      lastTable = pairs.get(key) ?? null;
      if (lastTable === null) pairs.set(key, (lastTable = new Int32Array(buckets).fill(-1)));
    }
    const bucket = Math.min(buckets - 1, Math.max(0, Math.floor((start - lo) / resolutionSec)));
    const best = lastTable![bucket];
    if (best < 0 || end - start > itemEnd[base + best] - itemStart[base + best])
      lastTable![bucket] = k;
  }
  for (const table of pairs.values())
    for (let b = 0; b < buckets; b++) if (table[b] >= 0) kept[table[b]] = 1;
  const walk = rowWalkOf(store, r, lanes);
  for (const namers of [walk.first, walk.earliestSpan, walk.labelled])
    for (const k of namers) if (k >= 0) kept[k] = 1;
  return { kept, startSec: lo, endSec: hi, resolutionSec, walk };
}
