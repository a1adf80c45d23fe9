import { isDict, type PyValue } from '../model/py-value';
import type { Attrs, PointItem, Row, RowItem, RowOwnField, SpanItem } from '../model/row';
import { walkEvents, type WalkPoint, type WalkResult, type WalkSpan } from './collect-items';
import { groupSiblings, ongoingEnd } from './ongoing-end';
import { pointDepth, spanDepths } from './depth';
import { NO_ATTRS } from './no-attrs';
import { slimeVirtualPdSpans } from './slime-pd-virtual';
import { comparePyStr, round6, scalarText } from './python-values';
import {
  responseLength,
  sampleLabel,
  sampleSource,
  sampleStatus,
  toAttr,
  traceAttempt,
} from './row-fields';

/**
 * Samples -> rows, exactly as slime's timeline viewer computes them (TRACE_MODEL section 3),
 * legacy PD virtual lanes included (section 4). Samples without a usable trace give no row.
 */
export function buildRows(samples: PyValue[]): {
  rows: Row[];
  untracedSamples: number;
  /** events skipped as malformed (an id, type or name that is a dict or list) */
  skippedEvents: number;
} {
  const rows: Row[] = [];
  const tally = { skippedEvents: 0 };
  samples.forEach((sample, position) => {
    const row = isDict(sample) ? buildRow(sample, position, tally) : null;
    if (row) rows.push(row);
  });
  return { rows, untracedSamples: samples.length - rows.length, ...tally };
}

export function buildRow(
  sample: Record<string, PyValue>,
  position: number,
  tally: { skippedEvents: number } = { skippedEvents: 0 },
): Row | null {
  const trace = sample.trace;
  if (!isDict(trace) || !Array.isArray(trace.events)) return null;
  const walk = walkEvents(trace.events, trace.attempt);
  tally.skippedEvents += walk.skipped;
  if (walk.kept === 0) return null;
  spanDepths(walk.spans, walk.byId);
  // siblings only place ongoing spans' ends: most rows have none, and never sort them
  let siblings: Map<string | null, WalkSpan[]> | null = null;
  const siblingsOf = () => (siblings ??= groupSiblings(walk.spans));

  // slime's order before its stable sort: spans, instant events, unmatched ends, virtual PD
  // (pushed onto the spans' own array: the copies and spreads of each part were garbage a row)
  const items: RowItem[] = walk.spans.map((span) => spanItem(span, walk, siblingsOf));
  let deepest = -1;
  for (const item of items) if (item.lane > deepest) deepest = item.lane;
  for (const point of walk.events) deepest = pushPoint(items, point, walk.byId, deepest);
  for (const point of walk.orphans) deepest = pushPoint(items, point, walk.byId, deepest);
  slimeVirtualPdSpans(items, walk.spans, deepest + 1);
  return withCounts(rowFields(sample, trace, position), sortItems(items));
}

/** An instant event's or unmatched end's item onto `items`; the deepest lane so far. */
function pushPoint(
  items: RowItem[],
  point: WalkPoint,
  byId: ReadonlyMap<string, WalkSpan>,
  deepest: number,
): number {
  // its parent's span, looked up once for its depth and name
  const parent = point.parent === null ? undefined : byId.get(point.parent);
  const depth = pointDepth(parent);
  const item: PointItem = {
    type: point.kind,
    state: point.kind === 'event' ? 'point_event' : 'orphan_end',
    name: point.name,
    ts: round6(point.ts),
    attempt: point.attempt,
    span_id: point.spanId,
    parent_span_id: point.parent,
    parent_span_name: parent === undefined ? null : parent.name,
    lane: depth,
    depth,
    attrs: itemAttrs(point.attrs),
  };
  items.push(item);
  return depth > deepest ? depth : deepest;
}

/**
 * A row of its own fields and items, with the counts over them, in slime's key order. Written
 * out field by field: spreading the counts into the fields made a slow object per row (the
 * spread was half of building a row).
 */
export function withCounts(own: Pick<Row, RowOwnField>, items: RowItem[]): Row {
  const counts = rowCounts(items);
  return {
    row_id: own.row_id,
    sample_index: own.sample_index,
    group_index: own.group_index,
    source: own.source,
    status: own.status,
    label: own.label,
    reward: own.reward,
    trace_id: own.trace_id,
    attempt: own.attempt,
    start: counts.start,
    end: counts.end,
    duration: counts.duration,
    lane_count: counts.lane_count,
    item_count: counts.item_count,
    closed_span_count: counts.closed_span_count,
    open_span_count: counts.open_span_count,
    point_event_count: counts.point_event_count,
    orphan_count: counts.orphan_count,
    total_response_length: counts.total_response_length,
    max_response_length: counts.max_response_length,
    items,
  };
}

/** Step 6: the row's own fields, from the sample and its trace. */
function rowFields(
  sample: Record<string, PyValue>,
  trace: Record<string, PyValue>,
  position: number,
): Pick<Row, RowOwnField> {
  return {
    row_id: position,
    sample_index: 'index' in sample ? toAttr(sample.index) : position,
    group_index: toAttr(sample.group_index),
    source: sampleSource(sample),
    status: sampleStatus(sample),
    label: sampleLabel(sample),
    reward: toAttr(sample.reward),
    trace_id:
      trace.trace_id === undefined || trace.trace_id === null ? null : scalarText(trace.trace_id),
    attempt: traceAttempt(trace),
  };
}

/** Step 6: extent and counts over the items (virtual PD spans included). */
export function rowCounts(items: RowItem[]): Omit<Row, 'items' | RowOwnField> {
  const counter = new RowCounter();
  for (const item of items) counter.add(item);
  return counter.counts();
}

/**
 * rowCounts one item at a time: for a format that packs each item as it makes it (a row of a
 * million items is never an array of objects).
 */
export class RowCounter {
  private start = Infinity;
  private end = -Infinity;
  private lane = 0;
  private items = 0;
  private closed = 0;
  private open = 0;
  private points = 0;
  private orphans = 0;
  private responseTotal = 0;
  private responseMax = 0;
  private responseSeen = false;

  add(item: RowItem): void {
    const itemStart = item.type === 'span' ? item.start_ts : item.ts;
    const itemEnd = item.type === 'span' ? item.display_end_ts : item.ts;
    if (itemStart < this.start) this.start = itemStart;
    if (itemEnd > this.end) this.end = itemEnd;
    if (item.lane > this.lane) this.lane = item.lane;
    this.items++;
    if (item.type === 'span') {
      if (item.state === 'closed_span') this.closed++;
      else this.open++;
      this.countResponse(item.attrs.start_attrs);
      this.countResponse(item.attrs.end_attrs);
    } else {
      if (item.type === 'event') this.points++;
      else this.orphans++;
      this.countResponse(item.attrs);
    }
  }

  counts(): Omit<Row, 'items' | RowOwnField> {
    const { start, end } = this;
    return {
      start,
      end,
      // slime subtracts the rounded times, then rounds again
      duration: round6(Math.max(0, end - start)),
      lane_count: this.lane + 1,
      item_count: this.items,
      closed_span_count: this.closed,
      open_span_count: this.open,
      point_event_count: this.points,
      orphan_count: this.orphans,
      total_response_length: this.responseTotal,
      max_response_length: this.responseMax,
    };
  }

  private countResponse(attrs: Attrs): void {
    const length = responseLength(attrs.response_length);
    if (length === null) return;
    this.responseTotal += length;
    // max(lengths, default=0): 0 only when there are none
    this.responseMax = this.responseSeen ? Math.max(this.responseMax, length) : length;
    this.responseSeen = true;
  }
}

function spanItem(
  span: WalkSpan,
  walk: WalkResult,
  siblingsOf: () => Map<string | null, WalkSpan[]>,
): SpanItem {
  let endAttrs: Attrs;
  let displayEnd = span.end;
  if (span.end === null) {
    const clip = ongoingEnd(span, walk.byId, siblingsOf(), walk.maxTs);
    displayEnd = clip.end;
    endAttrs = toAttr(span.endAttrs) as Attrs;
    endAttrs.clipped_by = clip.reason;
  } else endAttrs = itemAttrs(span.endAttrs);
  const end = span.end === null ? null : round6(span.end);
  return {
    type: 'span',
    state: span.end === null ? 'open_span' : 'closed_span',
    name: span.name,
    start_ts: round6(span.start),
    end_ts: end,
    // a closed span's drawn end is its end, rounded once
    display_end_ts: end === null ? round6(displayEnd!) : end,
    attempt: span.attempt,
    span_id: span.spanId,
    parent_span_id: span.parent,
    parent_span_name: span.up === null ? null : span.up.name,
    lane: span.depth,
    depth: span.depth,
    attrs: { start_attrs: itemAttrs(span.startAttrs), end_attrs: endAttrs },
  };
}

/** An event's attrs as an item's: NO_ATTRS when it has none (most spans' starts and ends). */
function itemAttrs(attrs: Attrs): Attrs {
  let empty = true;
  for (const key in attrs) {
    if (!Object.hasOwn(attrs, key)) continue;
    empty = false;
    const value: unknown = attrs[key];
    // what toAttr would change: a container, a bigint, a key a plain object treats apart
    if (
      (typeof value === 'object' && value !== null) ||
      typeof value === 'bigint' ||
      key === '__proto__' ||
      key === '$kind'
    )
      return toAttr(attrs) as Attrs;
  }
  // plain values only (almost every trace event's attrs): the dict read is the item's attrs,
  // not copied (a copy per span start and end was a tenth of building a row)
  return empty ? NO_ATTRS : attrs;
}

/** Rows of up to this many items are sorted by insertion (most rows: about a dozen items). */
const INSERTION_SORT_MAX = 48;

/**
 * `items` sorted in place by compareItems, stably (slime's order is Python's stable sort). A
 * row's items are few and mostly in order already: an insertion sort does it without the
 * engine's sort, which copies every array it sorts into a work array of its own (two thirds
 * of a gigabyte of garbage over 100k rows); longer rows take the engine's.
 */
export function sortItems<T extends RowItem>(items: T[]): T[] {
  const n = items.length;
  if (n > INSERTION_SORT_MAX) {
    // in order already (a row sorted again after its lanes were packed): nothing to copy
    let r = 1;
    while (r < n && compareItems(items[r - 1], items[r]) <= 0) r++;
    return r === n ? items : items.sort(compareItems);
  }
  for (let i = 1; i < n; i++) {
    const item = items[i];
    let j = i - 1;
    if (compareItems(items[j], item) <= 0) continue;
    while (j >= 0 && compareItems(items[j], item) > 0) {
      items[j + 1] = items[j];
      j--;
    }
    items[j + 1] = item;
  }
  return items;
}

/**
 * items sorted by (lane, start, end, name). Answers -1, 0 or 1, never a difference of times: a
 * fractional double returned to the sort is a heap number made per comparison (a third of a
 * gigabyte of garbage over 100k rows). A NaN time compares equal, as `NaN || next` did.
 */
export function compareItems(a: RowItem, b: RowItem): number {
  if (a.lane !== b.lane) return a.lane < b.lane ? -1 : 1;
  const aStart = a.type === 'span' ? a.start_ts : a.ts;
  const bStart = b.type === 'span' ? b.start_ts : b.ts;
  if (aStart < bStart) return -1;
  if (aStart > bStart) return 1;
  const aEnd = a.type === 'span' ? a.display_end_ts : a.ts;
  const bEnd = b.type === 'span' ? b.display_end_ts : b.ts;
  if (aEnd < bEnd) return -1;
  if (aEnd > bEnd) return 1;
  return comparePyStr(a.name, b.name);
}
