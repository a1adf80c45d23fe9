import { minOf, maxOf } from '../model/extent';
import type { PyValue } from '../model/py-value';
import type { Attrs, PointItem, Row, RowItem, SpanItem } from '../model/row';
import { walkEvents, type WalkSpan } from './collect-items';
import { groupSiblings, ongoingEnd } from './ongoing-end';
import { spanDepths } from './depth';
import { slimeVirtualPdSpans } from './slime-pd-virtual';
import { isDict, round6 } from './python-values';
import { sampleLabel, sampleSource, sampleStatus, toAttr } from './row-fields';

/**
 * Samples -> rows, exactly as slime's timeline viewer computes them (TRACE_MODEL section 3),
 * legacy PD virtual lanes included (section 4). Samples without a usable trace give no row.
 */
export function buildRows(samples: PyValue[]): { rows: Row[]; untracedSamples: number } {
  const rows: Row[] = [];
  samples.forEach((sample, position) => {
    const row = isDict(sample) ? buildRow(sample, position) : null;
    if (row) rows.push(row);
  });
  return { rows, untracedSamples: samples.length - rows.length };
}

export function buildRow(sample: Record<string, PyValue>, position: number): Row | null {
  const trace = sample.trace;
  if (!isDict(trace) || !Array.isArray(trace.events)) return null;
  const walk = walkEvents(trace.events, trace.attempt);
  if (walk.kept === 0) return null;
  const rowEnd = walk.maxTs;
  const depths = spanDepths(walk.spans);
  const siblings = groupSiblings(walk.spans.values());
  const nameOf = (id: string | null) => (id !== null ? (walk.spans.get(id)?.name ?? null) : null);

  const spanItems: SpanItem[] = [...walk.spans.values()]
    .sort((a, b) => a.order - b.order)
    .map((span) =>
      spanItem(
        span,
        depths.get(span.spanId) ?? 0,
        nameOf(span.parent),
        walk.spans,
        siblings,
        rowEnd,
      ),
    );
  const pointItems: PointItem[] = walk.points.map((point) => {
    const parentKnown = point.parent !== null && walk.spans.has(point.parent);
    const depth = parentKnown ? (depths.get(point.parent!) ?? 0) + 1 : 0;
    return {
      type: point.kind,
      state: point.kind === 'event' ? 'point_event' : 'orphan_end',
      name: point.name,
      ts: round6(point.ts),
      attempt: point.attempt,
      span_id: point.spanId,
      parent_span_id: point.parent,
      parent_span_name: nameOf(point.parent),
      lane: depth,
      depth,
      attrs: toAttr(point.attrs) as Attrs,
    };
  });
  const deepest = Math.max(-1, ...spanItems.map((s) => s.lane), ...pointItems.map((p) => p.lane));
  const rawDurations = new Map(
    [...walk.spans.values()].map((s) => [s.spanId, s.end === null ? 0 : s.end - s.start]),
  );
  const virtual = slimeVirtualPdSpans(spanItems, deepest + 1, rawDurations);
  const items: RowItem[] = [...spanItems, ...virtual, ...pointItems].sort(compareItems);

  let responseTotal = 0;
  let responseMax = 0;
  for (const item of items) {
    const attrLists =
      item.type === 'span' ? [item.attrs.start_attrs, item.attrs.end_attrs] : [item.attrs];
    for (const attrs of attrLists) {
      if (typeof attrs.response_length !== 'number') continue;
      responseTotal += attrs.response_length;
      responseMax = Math.max(responseMax, attrs.response_length);
    }
  }
  const spans = items.filter((i): i is SpanItem => i.type === 'span');
  // the row spans its items (a span replaced by a duplicate id no longer counts)
  const rowStart = minOf(items, (i) => (i.type === 'span' ? i.start_ts : i.ts));
  const rowStop = maxOf(items, (i) => (i.type === 'span' ? i.display_end_ts : i.ts));
  return {
    row_id: position,
    sample_index: 'index' in sample ? toAttr(sample.index) : position,
    group_index: toAttr(sample.group_index),
    source: sampleSource(sample),
    status: sampleStatus(sample),
    label: sampleLabel(sample),
    reward: toAttr(sample.reward),
    trace_id:
      trace.trace_id === undefined || trace.trace_id === null ? null : String(trace.trace_id),
    attempt: toAttr(trace.attempt),
    start: rowStart,
    end: rowStop,
    // slime subtracts the rounded times, then rounds again
    duration: round6(rowStop - rowStart),
    lane_count: Math.max(0, ...items.map((i) => i.lane)) + 1,
    item_count: items.length,
    closed_span_count: spans.filter((s) => s.state === 'closed_span').length,
    open_span_count: spans.filter((s) => s.state === 'open_span').length,
    point_event_count: items.filter((i) => i.type === 'event').length,
    orphan_count: items.filter((i) => i.type === 'orphan_end').length,
    total_response_length: responseTotal,
    max_response_length: responseMax,
    items,
  };
}

function spanItem(
  span: WalkSpan,
  depth: number,
  parentName: string | null,
  spans: Map<string, WalkSpan>,
  siblings: Map<string | null, WalkSpan[]>,
  rowEnd: number,
): SpanItem {
  const endAttrs = toAttr(span.endAttrs) as Attrs;
  let displayEnd = span.end;
  if (span.end === null) {
    const clip = ongoingEnd(span, spans, siblings, rowEnd);
    displayEnd = clip.end;
    endAttrs.clipped_by = clip.reason;
  }
  return {
    type: 'span',
    state: span.end === null ? 'open_span' : 'closed_span',
    name: span.name,
    start_ts: round6(span.start),
    end_ts: span.end === null ? null : round6(span.end),
    display_end_ts: round6(displayEnd!),
    attempt: span.attempt,
    span_id: span.spanId,
    parent_span_id: span.parent,
    parent_span_name: parentName,
    lane: depth,
    depth,
    attrs: { start_attrs: toAttr(span.startAttrs) as Attrs, end_attrs: endAttrs },
  };
}

/** items sorted by (lane, start, end, name) */
export function compareItems(a: RowItem, b: RowItem): number {
  const aStart = a.type === 'span' ? a.start_ts : a.ts;
  const bStart = b.type === 'span' ? b.start_ts : b.ts;
  const aEnd = a.type === 'span' ? a.display_end_ts : a.ts;
  const bEnd = b.type === 'span' ? b.display_end_ts : b.ts;
  return (
    a.lane - b.lane ||
    aStart - bStart ||
    aEnd - bEnd ||
    (a.name < b.name ? -1 : a.name > b.name ? 1 : 0)
  );
}
