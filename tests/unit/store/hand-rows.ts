import type { PointItem, Row, SpanItem } from '../../../src-main/core/model/row';

// Hand-built rows for the store's unit tests: the OTLP extras (PD phases, links, lane labels,
// errors, services) that slime's fixture caches never carry, with every value written out here
// so each expectation can be read off this file.

export function span(over: Partial<SpanItem> & Pick<SpanItem, 'name' | 'start_ts'>): SpanItem {
  const end = over.end_ts === undefined ? over.start_ts + 1 : over.end_ts;
  return {
    type: 'span',
    state: end === null ? 'open_span' : 'closed_span',
    end_ts: end,
    display_end_ts: end ?? over.start_ts + 1,
    attempt: null,
    span_id: null,
    parent_span_id: null,
    parent_span_name: null,
    lane: 0,
    depth: 0,
    attrs: { start_attrs: {}, end_attrs: {} },
    ...over,
  };
}

export function point(
  over: Partial<PointItem> & Pick<PointItem, 'name' | 'ts'>,
  type: PointItem['type'] = 'event',
): PointItem {
  return {
    type,
    state: type === 'event' ? 'point_event' : 'orphan_end',
    attempt: null,
    span_id: null,
    parent_span_id: null,
    parent_span_name: null,
    lane: 0,
    depth: 0,
    attrs: {},
    ...over,
  };
}

export function row(over: Partial<Row> & Pick<Row, 'row_id' | 'start' | 'end'>): Row {
  return {
    sample_index: over.row_id,
    group_index: null,
    source: null,
    status: null,
    label: null,
    reward: null,
    trace_id: null,
    attempt: null,
    duration: over.end - over.start,
    lane_count: 1,
    item_count: over.items?.length ?? 0,
    closed_span_count: 0,
    open_span_count: 0,
    point_event_count: 0,
    orphan_count: 0,
    total_response_length: 0,
    max_response_length: 0,
    items: [],
    ...over,
  };
}
