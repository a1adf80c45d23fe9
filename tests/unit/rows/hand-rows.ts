import type { Attrs, PointItem, Row, RowItem, SpanItem } from '../../../src-main/core/model/row';

/**
 * Hand-built rows for the rollout figures' tests: only the fields those modules read are
 * meaningful (items, start, end, ids, reward); the counts are left at 0.
 */

/** A closed span drawn over [start, end] (its display end is its end). */
export function span(
  name: string,
  start: number,
  end: number,
  extra: {
    depth?: number;
    lane?: number;
    endAttrs?: Attrs;
    /** null: an open span (drawn to `end`) */
    endTs?: number | null;
    id?: string | null;
    parent?: string | null;
  } = {},
): SpanItem {
  return {
    type: 'span',
    state: extra.endTs === null ? 'open_span' : 'closed_span',
    name,
    start_ts: start,
    end_ts: extra.endTs === undefined ? end : extra.endTs,
    display_end_ts: end,
    attempt: 0,
    span_id: extra.id ?? null,
    parent_span_id: extra.parent ?? null,
    parent_span_name: null,
    lane: extra.lane ?? 0,
    depth: extra.depth ?? 0,
    attrs: { start_attrs: {}, end_attrs: extra.endAttrs ?? {} },
  };
}

/** A point event at ts. */
export function point(
  name: string,
  ts: number,
  extra: { lane?: number; parent?: string } = {},
): PointItem {
  return {
    type: 'event',
    state: 'point_event',
    name,
    ts,
    attempt: 0,
    span_id: null,
    parent_span_id: extra.parent ?? null,
    parent_span_name: null,
    lane: extra.lane ?? 0,
    depth: 0,
    attrs: {},
  };
}

/** A row whose start and end are its items' first start and last end, unless given. */
export function row(
  rowId: number,
  items: RowItem[],
  fields: Partial<Omit<Row, 'row_id' | 'items'>> = {},
): Row {
  const starts = items.map((i) => (i.type === 'span' ? i.start_ts : i.ts));
  const ends = items.map((i) => (i.type === 'span' ? i.display_end_ts : i.ts));
  const start = fields.start ?? Math.min(...starts);
  const end = fields.end ?? Math.max(...ends);
  return {
    row_id: rowId,
    sample_index: rowId,
    group_index: 0,
    source: null,
    status: null,
    label: null,
    reward: null,
    trace_id: null,
    attempt: null,
    start,
    end,
    duration: end - start,
    lane_count: 1,
    item_count: items.length,
    closed_span_count: 0,
    open_span_count: 0,
    point_event_count: 0,
    orphan_count: 0,
    total_response_length: 0,
    max_response_length: 0,
    items,
    ...fields,
  };
}
