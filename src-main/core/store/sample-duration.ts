import type { PackedRow } from '../model/row';
import { PackedItemCursor } from '../rows/packed-items';
import type { TraceStore } from './build-store';
import { KeptSteps, finishSteps } from './kept-steps';
import { grownColumn } from '../model/grown-column';

/** Rows per step of durations made while a worker answers calls: tens of milliseconds. */
const ROWS_PER_STEP = 10_000;

/** Per store, its durations as far as they are made (the warm-up makes them in steps). */
const kept = new KeptSteps((store: TraceStore) => sampleDurationSteps(store.rows, ROWS_PER_STEP));

/**
 * Each row's own duration (buildSampleDurations) of a store, made on first use and kept: a
 * second at 100k rows that a preview shown while the file is read would pay each time, though
 * only sorting by duration needs it (the open file's warm-up makes it before a user asks).
 */
export function sampleDurations(store: TraceStore): Float64Array {
  return kept.value(store);
}

/**
 * The store's durations made a step at a time (about ROWS_PER_STEP rows each) for the warm-up:
 * made in one go they held a call back a quarter of a second at 100k rows.
 */
export function warmSampleDurations(store: TraceStore): Generator<void, void, void> {
  return kept.warm(store);
}

/**
 * Each row's own duration: the extent of its items without the spans it shares with other rows
 * of its group. slime copies the group's span (`generate_and_rm_group`) into every sample of the
 * group, with the same name and times; sorting by the whole row would make a group's samples
 * tie. A span counts as shared when another row of the same group has one of the same name,
 * start and end. A row with nothing of its own keeps its whole extent.
 */
export function buildSampleDurations(rows: readonly PackedRow[]): Float64Array {
  return finishSteps(sampleDurationSteps(rows, Infinity));
}

/** buildSampleDurations a step at a time: a yield after about `rowsPerStep` rows. */
function* sampleDurationSteps(
  rows: readonly PackedRow[],
  rowsPerStep: number,
): Generator<void, Float64Array, void> {
  const out = new Float64Array(rows.length);
  const done = new Uint8Array(rows.length);
  // read in place: a group's items go into typed columns (GroupItems), no item objects are made
  const item = new PackedItemCursor();
  const walked = new GroupItems();
  let sinceYield = 0;
  for (const members of groupsOf(rows)) {
    if (!groupDurations(rows, members, item, walked, out)) {
      // many spans of the group start at one time: compared sorted, in n log n
      const shared = sharedSpans(rows, members, item);
      members.forEach((r, m) => (out[r] = ownDuration(rows[r], item, shared[m])));
    }
    for (const r of members) done[r] = 1;
    sinceYield += members.length;
    if (sinceYield >= rowsPerStep) {
      sinceYield = 0;
      yield;
    }
  }
  for (let r = 0; r < rows.length; r++) {
    if (!done[r]) out[r] = ownDuration(rows[r], item, null);
    if (++sinceYield >= rowsPerStep) {
      sinceYield = 0;
      yield;
    }
  }
  return out;
}

/** The extent of a row's items but those marked in `shared` (by item index). */
function ownDuration(row: PackedRow, item: PackedItemCursor, shared: Uint8Array | null): number {
  let start = Infinity;
  let end = -Infinity;
  item.reset(row.packed);
  for (let k = 0; item.next(); k++) {
    if (shared !== null && shared[k]) continue;
    if (item.start < start) start = item.start;
    if (item.displayEnd > end) end = item.displayEnd;
  }
  return end >= start ? end - start : row.end - row.start;
}

/** Spans of a group that may start at one time before it is compared sorted instead. */
const CROWDED = 64;

/** A group's items as one walk finds them: typed columns, reused from group to group. */
class GroupItems {
  start = new Float64Array(256);
  end = new Float64Array(256);
  member = new Int32Array(256);
  isSpan = new Uint8Array(256);
  /** the span before this one (in walk order) that starts at the same time, or -1 */
  sameStart = new Int32Array(256);
  shared = new Uint8Array(256);
  names: string[] = [];
  /** where each member's items begin; the last entry is the item count */
  memberAt: number[] = [];
  count = 0;

  push(start: number, end: number, member: number, isSpan: boolean, name: string): void {
    if (this.count === this.start.length) this.grow();
    const i = this.count++;
    this.start[i] = start;
    this.end[i] = end;
    this.member[i] = member;
    this.isSpan[i] = isSpan ? 1 : 0;
    this.shared[i] = 0;
    this.names[i] = name;
  }

  private grow(): void {
    this.start = grownColumn(this.start, 0, 2);
    this.end = grownColumn(this.end, 0, 2);
    this.member = grownColumn(this.member, 0, 2);
    this.isSpan = grownColumn(this.isSpan, 0, 2);
    this.sameStart = grownColumn(this.sameStart, 0, 2);
    this.shared = grownColumn(this.shared, 0, 2);
  }
}

/**
 * The group's own durations into `out`, from one walk of its items: a span is shared when a
 * span of another row starts at the same time (a map by start; NaN and -0 match as `order`
 * says) with its name and end. False, nothing written, when more than CROWDED spans start at
 * one time (a hostile group would make those comparisons quadratic).
 */
function groupDurations(
  rows: readonly PackedRow[],
  members: number[],
  item: PackedItemCursor,
  walked: GroupItems,
  out: Float64Array,
): boolean {
  walked.count = 0;
  walked.memberAt.length = 0;
  members.forEach((r, m) => {
    walked.memberAt.push(walked.count);
    item.reset(rows[r].packed);
    while (item.next()) walked.push(item.start, item.displayEnd, m, item.isSpan, item.name);
  });
  walked.memberAt.push(walked.count);
  const { start, end, member, isSpan, sameStart, shared, names } = walked;
  // per start time, the last span that starts then (each span links to the one before it)
  const lastAt = new Map<number, number>();
  for (let i = 0; i < walked.count; i++) {
    if (!isSpan[i]) continue;
    const before = lastAt.get(start[i]);
    sameStart[i] = before ?? -1;
    lastAt.set(start[i], i);
    let seen = 0;
    for (let j = before ?? -1; j >= 0; j = sameStart[j]) {
      if (++seen > CROWDED) return false;
      if (member[j] !== member[i] && names[j] === names[i] && order(end[i], end[j]) === 0) {
        shared[i] = 1;
        shared[j] = 1;
      }
    }
  }
  members.forEach((r, m) => {
    let first = Infinity;
    let last = -Infinity;
    for (let i = walked.memberAt[m]; i < walked.memberAt[m + 1]; i++) {
      if (shared[i]) continue;
      if (start[i] < first) first = start[i];
      if (end[i] > last) last = end[i];
    }
    out[r] = last >= first ? last - first : rows[r].end - rows[r].start;
  });
  return true;
}

interface GroupSpan {
  name: string;
  start: number;
  end: number;
  /** which member row of the group, and which of its items */
  member: number;
  index: number;
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
 * Per member row of a group, which of its items are spans another row of the group also has
 * (same name, start and end). Compared sorted: string keys of every span cost a second of
 * number formatting and a map of a million keys at 100k samples.
 */
function sharedSpans(
  rows: readonly PackedRow[],
  members: number[],
  item: PackedItemCursor,
): Uint8Array[] {
  const shared = members.map((r) => new Uint8Array(rows[r].packed.count));
  const spans: GroupSpan[] = [];
  members.forEach((r, member) => {
    item.reset(rows[r].packed);
    for (let index = 0; item.next(); index++) {
      if (item.isSpan)
        spans.push({ name: item.name, start: item.start, end: item.displayEnd, member, index });
    }
  });
  spans.sort(
    (x, y) =>
      (x.name < y.name ? -1 : x.name > y.name ? 1 : 0) ||
      order(x.start, y.start) ||
      order(x.end, y.end),
  );
  for (let i = 0; i < spans.length;) {
    let j = i + 1;
    let otherRow = false;
    while (j < spans.length && sameKey(spans[i], spans[j])) {
      if (spans[j].member !== spans[i].member) otherRow = true;
      j++;
    }
    if (otherRow) for (let k = i; k < j; k++) shared[spans[k].member][spans[k].index] = 1;
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

function sameKey(a: GroupSpan, b: GroupSpan): boolean {
  return a.name === b.name && order(a.start, b.start) === 0 && order(a.end, b.end) === 0;
}
