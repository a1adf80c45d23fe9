import { grownColumn } from '../../model/grown-column';
import type { AttrColumns } from '../../model/attr-shape';
import type { Attrs, PackedItems, PackedRow, PointItem, RowItem, SpanItem } from '../../model/row';
import type { ArgsColumns } from './args-columns';
import type {
  ChromeId,
  ChromeInstant,
  ChromeProcess,
  ChromeSlice,
  ChromeThread,
  ChromeTrace,
} from './chrome-trace';
import { FlowSteps } from './flow-steps';

/** Places tracks of lanes (core/rows' packBlocks, given by the descriptor). */
export type PackBlocks = (blocks: { start: number; end: number; height: number }[]) => {
  firstLane: Int32Array;
  laneCount: number;
};

/** microseconds to seconds: a division, so 100 us is exactly the double 100e-6 */
const sec = (us: number) => us / 1e6;

/** Packs a row's items one at a time (core/rows' ItemPacker, given by the descriptor). */
export interface RowItemPacker {
  /** `countedIds`: every span's ids come to add as numbers (a long row then numbers its refs) */
  begin(count: number, countedIds?: boolean): void;
  /**
   * `spanRef`, `parentRef`: the item's ids as countedIds numbers them (its id texts unread);
   * `startColumns`: a span's start attrs as columns (its start_attrs unread)
   */
  add(item: RowItem, spanRef?: number, parentRef?: number, startColumns?: AttrColumns): void;
  end(): PackedItems;
  /** numbers for the ids `prefix` + n, n below `count`: n's is the base + n; null: none */
  countedIds(prefix: string, count: number): number | null;
  /** add's parentRef of a span without a parent */
  readonly noSpanRef: number;
}

/**
 * One row per process (TRACE_MODEL section 8), lanes from the top: the process's own
 * instants (when it has any), then each thread in sort order (a lane per nesting depth, its
 * thread name as the lane label), then its async tracks packed below. Global instants get a
 * row of their own. Slices must be nested (depth, parent) and flows bound. Empties the
 * trace's processes, flow steps and global instants as it goes (what is left of the trace
 * after it: its counts and notes). `offsetUs` moves every time (a GPU profile's
 * baseTimeNanoseconds puts it on the epoch clock): added here, as each item is made, rather
 * than written into every slice first (that pass was 6% of a Kineto rank's open, its new
 * doubles a tenth of the collector's work).
 *
 * Each item is made and packed at once, in the row's order: a row's items were all objects
 * at the same time as the slices they came from (with their attrs wrappers and links, the
 * largest part of a GPU rank's peak).
 */
export function buildChromeRows(
  trace: ChromeTrace,
  packBlocks: PackBlocks,
  packer: RowItemPacker,
  offsetUs = 0,
): PackedRow[] {
  const processes: (ChromeProcess | null)[] = [...trace.processes.values()].sort(
    (a, b) => (a.sortIndex ?? 0) - (b.sortIndex ?? 0) || compareIds(a.pid, b.pid),
  );
  // each process is let go of once its row is built (300,000 tiny processes held them all),
  // and the flow steps (bound by now) with the slices they point at
  trace.processes.clear();
  trace.flowSteps = new FlowSteps<ChromeThread, ChromeSlice>();
  trace.boundFlows = [];
  const rows: PackedRow[] = [];
  const lastUs = trace.lastUs + offsetUs;
  const clock: ItemClock = {
    lastUs,
    offsetUs,
    spanIdPrefix: trace.spanIdPrefix,
    argsColumns: trace.argsColumns,
    idBase: packer.countedIds(trace.spanIdPrefix, trace.sliceCount),
    lastParent: null,
    lastParentText: '',
    span: newSpan(),
    point: newPoint(),
    columns: { shape: NO_SHAPE, numbers: NO_NUMBERS, numbersAt: 0, refs: [], refsAt: 0 },
  };
  const order = new ItemOrder();
  for (let p = 0; p < processes.length; p++) {
    const process = processes[p]!;
    processes[p] = null;
    order.clear();
    processItems(process, order, lastUs, packBlocks, offsetUs);
    if (order.length > 0) {
      rows.push(packRowItems(rows.length, process, order, clock, packer));
    }
  }
  if (trace.globalInstants.length > 0) {
    order.clear();
    const instants = trace.globalInstants;
    trace.globalInstants = [];
    order.pushAll(instants, 0, 'global', offsetUs);
    rows.push(packRowItems(rows.length, null, order, clock, packer));
  }
  return rows;
}

/**
 * A row's items before they are made: what each comes from, its lane, lane label and start
 * (what orders them: lane, start, name), in typed columns grown as needed rather than an array
 * of numbers each (2M instants on one thread held five arrays of them). Each source is let go
 * of as its item is made (`take`), so that a slice or instant and its item never both stay.
 */
class ItemOrder {
  private sources: (ChromeSlice | ChromeInstant | null)[] = [];
  private lanes = new Int32Array(64);
  private labelIds = new Int32Array(64);
  /** start in the rows' seconds, as the item will hold it */
  private starts = new Float64Array(64);
  readonly labels: string[] = [];
  private orderBuffer = new Int32Array(0);
  /** where each lane's items begin in the order, and where the next goes (sorted) */
  private laneBuffer = new Int32Array(0);
  private lastLabel: string | null = null;
  length = 0;

  clear(): void {
    this.sources = [];
    this.labels.length = 0;
    this.lastLabel = null;
    this.length = 0;
  }

  push(source: ChromeSlice | ChromeInstant, lane: number, label: string, offsetUs: number): void {
    const n = this.length;
    if (n === this.lanes.length) this.grow();
    if (label !== this.lastLabel) {
      this.lastLabel = label;
      this.labels.push(label);
    }
    this.sources.push(source);
    this.lanes[n] = lane;
    this.labelIds[n] = this.labels.length - 1;
    this.starts[n] = sec((isSlice(source) ? source.startUs : source.tsUs) + offsetUs);
    this.length = n + 1;
  }

  /** every instant of `list` on one lane */
  pushAll(list: readonly ChromeInstant[], lane: number, label: string, offsetUs: number): void {
    for (let k = 0; k < list.length; k++) this.push(list[k], lane, label, offsetUs);
  }

  lane(k: number): number {
    return this.lanes[k];
  }

  label(k: number): string {
    return this.labels[this.labelIds[k]];
  }

  /** the source of item `k`, forgotten here */
  take(k: number): ChromeSlice | ChromeInstant {
    const source = this.sources[k]!;
    this.sources[k] = null;
    return source;
  }

  /**
   * Item indexes by lane, then start, then name: a view of one buffer kept for every row (a new
   * one per row was 300,000 buffers for 300,000 tiny processes), valid until the next call.
   * Items are put in their lanes by counting (stably), and a lane is sorted only when its items
   * are not in order already: they nearly always are (a thread's slices come in time order), and
   * a sort of a GPU rank's 100k items with a comparator was 2% of its open.
   */
  sorted(): Int32Array {
    const { lanes, starts, sources } = this;
    const n = this.length;
    if (this.orderBuffer.length < n) this.orderBuffer = new Int32Array(this.lanes.length);
    const order = this.orderBuffer.subarray(0, n);
    let laneCount = 0;
    for (let i = 0; i < n; i++) if (lanes[i] >= laneCount) laneCount = lanes[i] + 1;
    // two buffers kept for every row too (300,000 tiny processes' rows: no new ones each)
    if (this.laneBuffer.length < 2 * laneCount + 1)
      this.laneBuffer = new Int32Array(2 * laneCount + 1);
    const laneStart = this.laneBuffer.subarray(0, laneCount + 1).fill(0);
    for (let i = 0; i < n; i++) laneStart[lanes[i] + 1]++;
    for (let l = 0; l < laneCount; l++) laneStart[l + 1] += laneStart[l];
    const next = this.laneBuffer.subarray(laneCount + 1, 2 * laneCount + 1);
    next.set(laneStart.subarray(0, laneCount));
    for (let i = 0; i < n; i++) order[next[lanes[i]]++] = i;
    const byStartThenName = (a: number, b: number) => {
      const d = starts[a] - starts[b];
      if (d !== 0) return d;
      const an = sources[a]!.name;
      const bn = sources[b]!.name;
      return an < bn ? -1 : an > bn ? 1 : 0;
    };
    for (let l = 0; l < laneCount; l++) {
      const from = laneStart[l];
      const to = laneStart[l + 1];
      for (let k = from + 1; k < to; k++) {
        if (byStartThenName(order[k - 1], order[k]) > 0) {
          order.subarray(from, to).sort(byStartThenName);
          break;
        }
      }
    }
    return order;
  }

  private grow(): void {
    this.lanes = grownColumn(this.lanes, 0, 2);
    this.labelIds = grownColumn(this.labelIds, 0, 2);
    this.starts = grownColumn(this.starts, 0, 2);
  }
}

/** a slice has a kind, an instant none (a property read, cheaper than an `in` test) */
const isSlice = (source: ChromeSlice | ChromeInstant): source is ChromeSlice =>
  (source as Partial<ChromeSlice>).kind !== undefined;

/**
 * What each item is made with: the rows' last time (open slices end there), the offset of the
 * rows' clock from the trace's, and the span ids' prefix.
 */
interface ItemClock {
  lastUs: number;
  offsetUs: number;
  spanIdPrefix: string;
  /** where slices' args are kept (ChromeSlice.args) */
  argsColumns: ArgsColumns;
  /**
   * The packer's number of the span id of slice 0 (slice n's is this + n: RowItemPacker's
   * countedIds), so that no id text is made per slice; null: ids are made as text.
   */
  idBase: number | null;
  /** the parent named last and its id's text (parentText) */
  lastParent: ChromeSlice | null;
  lastParentText: string;
  /**
   * The one span item and the one point item every item is made in, then packed (the packer
   * keeps their values, never them): an object per item was 200k objects of a 30 MB GPU rank,
   * each of a hidden class of its own by the extras it had, and the packer's reads of them
   * polymorphic.
   */
  span: SpanItem;
  point: PointItem;
  /** where the span's args kept as columns are (filled for each such span, as `span` is) */
  columns: AttrColumns;
}

const NO_SHAPE = { keys: [], numeric: [] };
const NO_NUMBERS = new Float64Array(0);

/** The row of one process (null: the global instants), its items made and packed in order. */
function packRowItems(
  position: number,
  process: ChromeProcess | null,
  order: ItemOrder,
  clock: ItemClock,
  packer: RowItemPacker,
): PackedRow {
  const tally = new RowTally();
  packer.begin(order.length, clock.idBase !== null);
  const { span, point } = clock;
  const sorted = order.sorted();
  for (let at = 0; at < sorted.length; at++) {
    const k = sorted[at];
    const source = order.take(k);
    if (isSlice(source)) {
      fillSpan(span, source, order.lane(k), order.label(k), clock);
      tally.add(span);
      // args kept as columns go to the packer as they are (fillSpan made no object of them)
      const columns =
        typeof source.args === 'number'
          ? clock.argsColumns.columnsOf(source.args, clock.columns)
          : undefined;
      const base = clock.idBase;
      if (base === null) packer.add(span, undefined, undefined, columns);
      else {
        const parent = source.parent;
        packer.add(
          span,
          base + source.spanIndex,
          parent === null ? packer.noSpanRef : base + parent.spanIndex,
          columns,
        );
      }
      forget(source);
    } else {
      fillPoint(point, source, order.lane(k), order.label(k), clock.offsetUs);
      tally.add(point);
      packer.add(point);
    }
  }
  return packedRow(position, process, tally, packer.end());
}

/**
 * A process's items into `items`. `lastUs` is on the rows' clock already; slices and instants
 * are `offsetUs` behind it. The process's lists are emptied as they are taken (the order holds
 * each source until its item is made), except slices a flow or a figure still points at.
 */
function processItems(
  process: ChromeProcess,
  items: ItemOrder,
  lastUs: number,
  packBlocks: PackBlocks,
  offsetUs: number,
): void {
  let lane = 0;
  if (process.instants.length > 0) {
    const instants = process.instants;
    process.instants = TAKEN;
    items.pushAll(instants, lane, 'process', offsetUs);
    lane++;
  }
  const threads = process.threads.sort(
    (a, b) => (a.sortIndex ?? 0) - (b.sortIndex ?? 0) || compareIds(a.tid, b.tid),
  );
  process.threads = TAKEN;
  for (const thread of threads) {
    if (thread.slices.length === 0 && thread.instants.length === 0) continue;
    const label = threadLabel(thread);
    let height = 1;
    const slices = thread.slices;
    for (let i = 0; i < slices.length; i++) {
      const slice = slices[i];
      items.push(slice, lane + slice.depth, label, offsetUs);
      height = Math.max(height, slice.depth + 1);
    }
    items.pushAll(thread.instants, lane, label, offsetUs);
    thread.slices = TAKEN;
    thread.instants = TAKEN;
    lane += height;
  }
  const tracks = [...process.asyncTracks.values()].filter(
    (t) => t.slices.length > 0 || t.instants.length > 0,
  );
  process.asyncTracks.clear();
  // most processes have no async track: no packing (its typed arrays were 300,000 buffers for
  // 300,000 tiny processes, let go of only when the collector got to them)
  if (tracks.length === 0) return;
  const blocks = tracks.map((track) => {
    let start = Infinity;
    let end = -Infinity;
    let height = 1;
    for (const s of track.slices) {
      start = Math.min(start, s.startUs + offsetUs);
      end = Math.max(end, s.endUs === null ? lastUs : s.endUs + offsetUs);
      height = Math.max(height, s.depth + 1);
    }
    for (const i of track.instants) {
      start = Math.min(start, i.tsUs + offsetUs);
      end = Math.max(end, i.tsUs + offsetUs);
    }
    return { start, end, height };
  });
  const packed = packBlocks(blocks);
  tracks.forEach((track, k) => {
    const top = lane + packed.firstLane[k];
    const label = `${track.label} (async)`;
    for (const slice of track.slices) items.push(slice, top + slice.depth, label, offsetUs);
    items.pushAll(track.instants, top, label, offsetUs);
    track.slices = TAKEN;
    track.instants = TAKEN;
  });
}

const NO_ATTRS: Attrs = Object.freeze({}) as Attrs;

/**
 * What a process's or thread's list is once its items are taken: one shared, frozen empty list.
 * A new `[]` written into a process or thread the collector has moved to the old generation
 * lives (and is moved there too) until that process is collected: three arrays per process, a
 * tenth of the garbage of 300,000 tiny processes' rows.
 */
const TAKEN: never[] = Object.freeze([]) as unknown as never[];

/**
 * What a slice holds beyond what a later item asks of it (a kernel's link to its launch: the
 * launch's span id and row; a child's parent: its span id and name), let go of once its own
 * item is made: a launch a kernel still links to kept its args and its ancestors, and through
 * them most of a GPU rank, until the kernel's item was made.
 */
function forget(slice: ChromeSlice): void {
  slice.args = NO_ATTRS;
  slice.endArgs = NO_ATTRS;
  slice.parent = null;
  slice.flowsFrom = null;
}

/**
 * The span id of `parent` as its children name it: one string for siblings (they come one after
 * another, a lane in time order), not one each, as a GPU rank's long row keeps its ids as
 * strings (a 30 MB rank's row: 2.2 MB more than one id string per slice; 1.6 MB with this). Not
 * kept on the slice: a field more on each of 300,000 tiny processes' slices moved their peak
 * from 405-417 MB to 460-469 MB (3 runs each).
 */
function parentText(clock: ItemClock, parent: ChromeSlice): string {
  if (clock.lastParent !== parent) {
    clock.lastParent = parent;
    clock.lastParentText = clock.spanIdPrefix + parent.spanIndex;
  }
  return clock.lastParentText;
}

const startOf = (item: RowItem) => (item.type === 'span' ? item.start_ts : item.ts);

/** A span item to fill: every field, extras included, there from the start (one hidden class). */
function newSpan(): SpanItem {
  return {
    type: 'span',
    state: 'closed_span',
    name: '',
    start_ts: 0,
    end_ts: null,
    display_end_ts: 0,
    attempt: null,
    span_id: null,
    parent_span_id: null,
    parent_span_name: null,
    lane: 0,
    depth: 0,
    attrs: { start_attrs: NO_ATTRS, end_attrs: NO_ATTRS },
    lane_label: '',
    category: undefined,
    links: undefined,
  };
}

function newPoint(): PointItem {
  return {
    type: 'event',
    state: 'point_event',
    name: '',
    ts: 0,
    attempt: null,
    span_id: null,
    parent_span_id: null,
    parent_span_name: null,
    lane: 0,
    depth: 0,
    attrs: NO_ATTRS,
    lane_label: '',
  };
}

/** `span` made the item of `slice` (all of its fields written: it held the item before). */
function fillSpan(
  span: SpanItem,
  slice: ChromeSlice,
  lane: number,
  label: string,
  clock: ItemClock,
): void {
  const { lastUs, offsetUs, spanIdPrefix } = clock;
  const open = slice.endUs === null;
  const startUs = slice.startUs + offsetUs;
  const endUs = open ? lastUs : slice.endUs! + offsetUs;
  span.state = open ? 'open_span' : 'closed_span';
  span.name = slice.name;
  span.start_ts = sec(startUs);
  span.end_ts = open ? null : sec(endUs);
  span.display_end_ts = sec(Math.max(startUs, endUs));
  // with counted ids the packer is given their numbers instead (packRowItems)
  if (clock.idBase === null) {
    span.span_id = spanIdPrefix + slice.spanIndex;
    span.parent_span_id = slice.parent === null ? null : parentText(clock, slice.parent);
  }
  span.parent_span_name = slice.parent?.name ?? null;
  span.lane = lane;
  span.depth = slice.depth;
  // args kept as columns are given to the packer as such (packRowItems)
  span.attrs.start_attrs = typeof slice.args === 'number' ? NO_ATTRS : slice.args;
  span.attrs.end_attrs = open ? { ...slice.endArgs, clipped_by: 'row_end' } : slice.endArgs;
  span.lane_label = label;
  span.category = slice.category;
  span.links =
    slice.flowsFrom === null
      ? undefined
      : slice.flowsFrom.map((from) => ({
          trace_id: from.rowTraceId,
          span_id: spanIdPrefix + from.spanIndex,
          dangling: false,
        }));
}

/** `point` made the item of `instant` (all of its fields written). */
function fillPoint(
  point: PointItem,
  instant: ChromeInstant,
  lane: number,
  label: string,
  offsetUs: number,
): void {
  point.type = instant.unmatchedEnd ? 'orphan_end' : 'event';
  point.state = instant.unmatchedEnd ? 'orphan_end' : 'point_event';
  point.name = instant.name;
  point.ts = sec(instant.tsUs + offsetUs);
  point.lane = lane;
  point.attrs = instant.args;
  point.lane_label = label;
}

/** A row's extent and counts, item by item. */
class RowTally {
  start = Infinity;
  end = -Infinity;
  closed = 0;
  open = 0;
  points = 0;
  orphans = 0;
  lanes = 0;
  items = 0;

  add(item: RowItem): void {
    this.items++;
    this.start = Math.min(this.start, startOf(item));
    this.end = Math.max(this.end, item.type === 'span' ? item.display_end_ts : item.ts);
    this.lanes = Math.max(this.lanes, item.lane + 1);
    if (item.type === 'span') {
      if (item.state === 'closed_span') this.closed++;
      else this.open++;
    } else if (item.type === 'orphan_end') this.orphans++;
    else this.points++;
  }
}

/**
 * The row, one object literal: `{ ...fields, packed }` gave each of 300,000 rows a hidden
 * class of its own (a V8 map and descriptor array, 600 bytes a row).
 */
function packedRow(
  position: number,
  process: ChromeProcess | null,
  tally: RowTally,
  packed: PackedItems,
): PackedRow {
  const name = process === null ? 'global' : processLabel(process);
  const { start, end } = tally;
  return {
    row_id: position,
    sample_index: position,
    group_index: null,
    source: name,
    status: null,
    label: name,
    reward: null,
    trace_id: process === null ? 'global' : process.traceId,
    attempt: 0,
    start,
    end,
    duration: end - start,
    lane_count: tally.lanes,
    item_count: tally.items,
    closed_span_count: tally.closed,
    open_span_count: tally.open,
    point_event_count: tally.points,
    orphan_count: tally.orphans,
    total_response_length: 0,
    max_response_length: 0,
    packed,
  };
}

/**
 * "python (pid 12)", or the pid itself when it is a name already ("CPU functions"), else its
 * trace id's very string ("pid 12": not a copy per row)
 */
function processLabel(process: ChromeProcess): string {
  const base =
    process.name !== null
      ? `${process.name} (pid ${String(process.pid)})`
      : typeof process.pid === 'string'
        ? process.pid
        : process.traceId;
  return process.labels ? `${base} ${process.labels}` : base;
}

function threadLabel(thread: ChromeThread): string {
  if (thread.name === null) return `tid ${String(thread.tid)}`;
  // Kineto names a thread "thread 4037 (python3.8)", a GPU profile a stream "GPU 0 stream 7":
  // the tid is said already
  const tid = String(thread.tid);
  return thread.name.startsWith(`thread ${tid} `) || thread.name.endsWith(` stream ${tid}`)
    ? thread.name
    : `${thread.name} (tid ${tid})`;
}

/** numbers in order, then strings in order */
function compareIds(a: ChromeId, b: ChromeId): number {
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  if (typeof a === 'number') return -1;
  if (typeof b === 'number') return 1;
  return a < b ? -1 : a > b ? 1 : 0;
}
