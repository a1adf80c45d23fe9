import type { Attrs, PackedRow, RowItem, RowOwnField } from '../../model/row';
import type { TimelineProcess, TimelineRecord } from './parse-timeline-records';

/** Lanes' end times (core/rows' LaneEnds, given by the descriptor): the lowest lane free at a time. */
export interface FreeLanes {
  firstFree(from: number, at: number): number;
  set(lane: number, end: number): void;
}

/**
 * Packs a row's items one at a time and counts them (core/rows' ItemPacker and RowCounter,
 * given by the descriptor): `begin` with how many, `add` each in the row's order, `end` for the
 * row's extent, counts and packed items.
 */
export interface RowItemPacker {
  begin(count: number): void;
  add(item: RowItem): void;
  end(): Omit<PackedRow, RowOwnField>;
}

/** What the rows are built with: core/rows' steps, given by the descriptor. */
export interface TimelineRowSteps {
  freeLanes: () => FreeLanes;
  packer: RowItemPacker;
  /** the order of two names among a row's items at one lane and time (Python's str order) */
  compareNames: (a: string, b: string) => number;
}

/**
 * The most processes drawn as rows of their own. slime writes a file per trainer process, so a
 * file names one or a few; a million ranks in one file (issue 49: 1.92 GB) is not a trainer a
 * timeline can show row by row. Past this many the rest are folded into one row, and said.
 */
export const MAX_PROCESS_ROWS = 10_000;

export interface TimelineRows {
  rows: PackedRow[];
  /** how many processes were folded into the last row (0: every process has its own row) */
  foldedProcesses: number;
}

/**
 * One row per trainer process (role, rank), in (role, rank) order: spans are
 * `[api_launch, completion]` bars, events instants, nested by time containment (a bucket's send
 * inside its sync); a span that overlaps without containing takes the next free lane. Past
 * MAX_PROCESS_ROWS processes the rest share one last row.
 *
 * A row's records are placed as numbers (lane, depth, parent) side by side, then each item is
 * made and packed at once in the row's order: the items are never all objects together.
 */
export function buildTimelineRows(
  records: readonly TimelineRecord[],
  processes: readonly TimelineProcess[],
  steps: TimelineRowSteps,
  maxRows = MAX_PROCESS_ROWS,
): TimelineRows {
  const sorted = processes
    .map((_, p) => p)
    .sort((a, b) => {
      const pa = processes[a];
      const pb = processes[b];
      return pa.role < pb.role ? -1 : pa.role > pb.role ? 1 : pa.rank - pb.rank;
    });
  const rowCount = Math.min(sorted.length, maxRows + (sorted.length > maxRows ? 1 : 0));
  // each process's row: its place in (role, rank) order, the folded ones the last row's
  const rowOf = new Int32Array(processes.length);
  sorted.forEach((p, place) => (rowOf[p] = Math.min(place, maxRows)));
  const byRow = recordsByRow(records, rowOf, rowCount);
  const rows: PackedRow[] = [];
  for (let row = 0; row < rowCount; row++) {
    const own = byRow.order.subarray(byRow.starts[row], byRow.starts[row + 1]);
    const folded = row === maxRows;
    rows.push(
      processRow(records, own, row, steps, folded ? foldedAs(processes, sorted, maxRows) : null),
    );
  }
  return { rows, foldedProcesses: Math.max(0, sorted.length - maxRows) };
}

/** Record indexes grouped by row (a counting sort, file order kept within a row). */
function recordsByRow(
  records: readonly TimelineRecord[],
  rowOf: Int32Array,
  rowCount: number,
): { order: Int32Array; starts: Int32Array } {
  const starts = new Int32Array(rowCount + 1);
  for (const record of records) starts[rowOf[record.process] + 1]++;
  for (let row = 0; row < rowCount; row++) starts[row + 1] += starts[row];
  const at = starts.slice(0, rowCount);
  const order = new Int32Array(records.length);
  records.forEach((record, i) => (order[at[rowOf[record.process]]++] = i));
  return { order, starts };
}

/**
 * The folded row's source (the first and last process it holds, and how many) and its index:
 * the rank of its first process, as every other row's index is its process's rank.
 */
function foldedAs(
  processes: readonly TimelineProcess[],
  sorted: number[],
  maxRows: number,
): FoldedRow {
  const name = (p: number) => `${processes[p].role} ${processes[p].rank}`;
  const count = sorted.length - maxRows;
  return {
    source: `${name(sorted[maxRows])} to ${name(sorted[sorted.length - 1])} (${count.toLocaleString('en-US')} processes folded)`,
    rank: processes[sorted[maxRows]].rank,
  };
}

interface FoldedRow {
  source: string;
  rank: number;
}

function processRow(
  records: readonly TimelineRecord[],
  own: Int32Array,
  rowId: number,
  steps: TimelineRowSteps,
  folded: FoldedRow | null,
): PackedRow {
  const first = records[own[0]];
  const fields = {
    row_id: rowId,
    sample_index: folded?.rank ?? first.rank,
    group_index: null,
    source: folded?.source ?? `${first.role} ${first.rank}`,
    status: null,
    label: null,
    reward: null,
    trace_id:
      folded === null && typeof first.fields.run_id === 'string' ? first.fields.run_id : null,
    attempt: null,
  };
  return { ...fields, ...packItems(records, own, steps) };
}

/**
 * Places a row's records in one sweep in time order (at one instant spans first, longest
 * first, then events), then makes and packs each item in the row's order: lane, start, end,
 * name (core/rows' compareItems; a stable sort of the placement order, as sortItems does).
 */
function packItems(
  records: readonly TimelineRecord[],
  own: Int32Array,
  steps: TimelineRowSteps,
): Omit<PackedRow, RowOwnField> {
  const ordered = Array.from(own).sort((a, b) => {
    const ra = records[a];
    const rb = records[b];
    return (
      ra.startSec - rb.startSec ||
      (ra.recordType === rb.recordType ? 0 : ra.recordType === 'span' ? -1 : 1) ||
      rb.endSec - ra.endSec ||
      ra.sequenceId - rb.sequenceId
    );
  });
  const placed = placeRecords(records, ordered, steps.freeLanes());
  const { lane } = placed;
  const byRowOrder = ordered
    .map((_, k) => k)
    .sort((a, b) => {
      if (lane[a] !== lane[b]) return lane[a] - lane[b];
      const ra = records[ordered[a]];
      const rb = records[ordered[b]];
      if (ra.startSec !== rb.startSec) return ra.startSec < rb.startSec ? -1 : 1;
      if (ra.endSec !== rb.endSec) return ra.endSec < rb.endSec ? -1 : 1;
      return steps.compareNames(ra.operation, rb.operation);
    });
  const { packer } = steps;
  packer.begin(ordered.length);
  for (const k of byRowOrder) {
    const parent = placed.parent[k];
    packer.add(
      itemOf(
        records[ordered[k]],
        lane[k],
        placed.depth[k],
        parent < 0 ? null : records[parent].operation,
      ),
    );
  }
  return packer.end();
}

/**
 * Lanes by time containment: a span inside the innermost open span goes below it, one that
 * overlaps without containing takes the next free lane; an instant sits on the lane of the
 * innermost span around it (its end included). Per record in `ordered`: lane, depth and the
 * record index of the span around it (-1 for none).
 */
function placeRecords(
  records: readonly TimelineRecord[],
  ordered: readonly number[],
  laneEnds: FreeLanes,
): { lane: Int32Array; depth: Int32Array; parent: Int32Array } {
  const n = ordered.length;
  const lane = new Int32Array(n);
  const depth = new Int32Array(n);
  const parent = new Int32Array(n).fill(-1);
  // open spans that may contain the next record: their place in `ordered`
  const stack: number[] = [];
  const top = () => stack[stack.length - 1];
  const endOf = (k: number) => records[ordered[k]].endSec;
  for (let k = 0; k < n; k++) {
    const record = records[ordered[k]];
    if (record.recordType === 'event') {
      while (stack.length > 0 && endOf(top()) < record.startSec) stack.pop();
      if (stack.length > 0) {
        lane[k] = depth[k] = lane[top()];
        parent[k] = ordered[top()];
      }
      continue;
    }
    while (stack.length > 0 && endOf(top()) <= record.startSec) stack.pop();
    const around = stack.length > 0 && record.endSec <= endOf(top()) ? top() : -1;
    depth[k] = around < 0 ? 0 : lane[around] + 1;
    lane[k] = laneEnds.firstFree(depth[k], record.startSec);
    laneEnds.set(lane[k], record.endSec);
    if (around >= 0) parent[k] = ordered[around];
    stack.push(k);
  }
  return { lane, depth, parent };
}

function itemOf(
  record: TimelineRecord,
  lane: number,
  depth: number,
  parentName: string | null,
): RowItem {
  // every key of the record, for details (numbers above 2^53 stay as JSON gave them); the item
  // lives only until it is packed, so the record's own object is its attrs
  const attrs = record.fields as Attrs;
  const common = {
    name: record.operation,
    attempt: null,
    span_id: String(record.sequenceId),
    parent_span_id: null,
    parent_span_name: parentName,
    lane,
    depth,
  };
  if (record.recordType === 'event') {
    return { type: 'event', state: 'point_event', ts: record.startSec, ...common, attrs };
  }
  return {
    type: 'span',
    state: 'closed_span',
    start_ts: record.startSec,
    end_ts: record.endSec,
    display_end_ts: record.endSec,
    ...common,
    attrs: { start_attrs: attrs, end_attrs: {} },
  };
}
