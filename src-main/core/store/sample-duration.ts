import type { PackedRow, RowItem, SpanItem } from '../model/row';
import { unpackItems } from '../rows/packed-items';
import type { TraceStore } from './build-store';

const kept = new WeakMap<TraceStore, Float64Array>();

/**
 * Each row's own duration (buildSampleDurations) of a store, made on first use and kept: a
 * second at 100k rows that a preview shown while the file is read would pay each time, though
 * only sorting by duration needs it (the open file's warm-up makes it before a user asks).
 */
export function sampleDurations(store: TraceStore): Float64Array {
  let durations = kept.get(store);
  if (!durations) {
    durations = buildSampleDurations(store.rows);
    kept.set(store, durations);
  }
  return durations;
}

/**
 * Each row's own duration: the extent of its items without the spans it shares with other rows
 * of its group. slime copies the group's span (`generate_and_rm_group`) into every sample of the
 * group, with the same name and times; sorting by the whole row would make a group's samples
 * tie. A span counts as shared when another row of the same group has one of the same name,
 * start and end. A row with nothing of its own keeps its whole extent.
 */
export function buildSampleDurations(rows: readonly PackedRow[]): Float64Array {
  const out = new Float64Array(rows.length);
  const done = new Uint8Array(rows.length);
  // a group's rows unpacked together (shared spans are found among them), then let go
  for (const members of groupsOf(rows)) {
    const items = members.map((r) => unpackItems(rows[r].packed));
    const shared = sharedSpans(members, items);
    members.forEach((r, k) => {
      out[r] = ownDuration(rows[r], items[k], shared);
      done[r] = 1;
    });
  }
  const none = new Set<SpanItem>();
  for (let r = 0; r < rows.length; r++)
    if (!done[r]) out[r] = ownDuration(rows[r], unpackItems(rows[r].packed), none);
  return out;
}

function ownDuration(row: PackedRow, items: RowItem[], shared: Set<SpanItem>): number {
  let start = Infinity;
  let end = -Infinity;
  for (const item of items) {
    if (item.type === 'span' && shared.has(item)) continue;
    const a = item.type === 'span' ? item.start_ts : item.ts;
    const b = item.type === 'span' ? item.display_end_ts : item.ts;
    if (a < start) start = a;
    if (b > end) end = b;
  }
  return end >= start ? end - start : row.end - row.start;
}

interface GroupSpan {
  span: SpanItem;
  row: number;
}

/** The rows of each group of two rows or more, by group_index. */
function groupsOf(rows: readonly PackedRow[]): number[][] {
  const groups = new Map<string, number[]>();
  rows.forEach((row, r) => {
    if (row.group_index === null || row.group_index === undefined) return;
    const key = String(row.group_index);
    const members = groups.get(key);
    if (members) members.push(r);
    else groups.set(key, [r]);
  });
  return [...groups.values()].filter((members) => members.length >= 2);
}

/**
 * The spans of a group's rows that another row of the group also has (same name, start and
 * end). Compared sorted: string keys of every span cost a second of number formatting and a
 * map of a million keys at 100k samples.
 */
function sharedSpans(members: number[], items: RowItem[][]): Set<SpanItem> {
  const shared = new Set<SpanItem>();
  const spans: GroupSpan[] = [];
  members.forEach((r, k) => {
    for (const item of items[k]) if (item.type === 'span') spans.push({ span: item, row: r });
  });
  spans.sort(
    (x, y) =>
      (x.span.name < y.span.name ? -1 : x.span.name > y.span.name ? 1 : 0) ||
      order(x.span.start_ts, y.span.start_ts) ||
      order(x.span.display_end_ts, y.span.display_end_ts),
  );
  for (let i = 0; i < spans.length;) {
    let j = i + 1;
    let otherRow = false;
    while (j < spans.length && sameKey(spans[i].span, spans[j].span)) {
      if (spans[j].row !== spans[i].row) otherRow = true;
      j++;
    }
    if (otherRow) for (let k = i; k < j; k++) shared.add(spans[k].span);
    i = j;
  }
  return shared;
}

/** numbers in order, NaN after every number and equal to itself (as their text would be) */
function order(a: number, b: number): number {
  if (a === b) return 0;
  if (Number.isNaN(a)) return Number.isNaN(b) ? 0 : 1;
  if (Number.isNaN(b)) return -1;
  return a < b ? -1 : 1;
}

function sameKey(a: SpanItem, b: SpanItem): boolean {
  return (
    a.name === b.name &&
    order(a.start_ts, b.start_ts) === 0 &&
    order(a.display_end_ts, b.display_end_ts) === 0
  );
}
