import type {
  Attrs,
  PackedRow,
  PointItem,
  Row,
  RowItem,
  SpanItem,
} from '../../../src-main/core/model/row';
import { packRow } from '../../../src-main/core/rows/packed-items';
import { point as pointItem, row as rowOf, span as spanItem } from '../store/hand-rows';

/**
 * Hand-built rows for the rollout figures' tests, positional (name, start, end) over the
 * store tests' builders: only the fields those modules read are meaningful (items, start, end,
 * ids, reward); the counts are left at 0.
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
  return spanItem({
    name,
    start_ts: start,
    end_ts: extra.endTs === undefined ? end : extra.endTs,
    display_end_ts: end,
    attempt: 0,
    span_id: extra.id ?? null,
    parent_span_id: extra.parent ?? null,
    lane: extra.lane ?? 0,
    depth: extra.depth ?? 0,
    attrs: { start_attrs: {}, end_attrs: extra.endAttrs ?? {} },
  });
}

/** A point event at ts. */
export function point(
  name: string,
  ts: number,
  extra: { lane?: number; parent?: string } = {},
): PointItem {
  return pointItem({
    name,
    ts,
    attempt: 0,
    parent_span_id: extra.parent ?? null,
    lane: extra.lane ?? 0,
  });
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
  return rowOf({ row_id: rowId, start, end, group_index: 0, items, ...fields });
}

/** The same row as a file keeps it (items packed): what the rollout figures are made from. */
export function packedRow(
  rowId: number,
  items: RowItem[],
  fields: Partial<Omit<Row, 'row_id' | 'items'>> = {},
): PackedRow {
  return packRow(row(rowId, items, fields));
}
