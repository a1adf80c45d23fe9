import type { Attrs, AttrValue, Row, SpanItem } from '../../../model/row';
import { rowCounts, sortItems } from '../../../rows/build-rows';
import { nestByTime } from '../../../rows/nest-by-time';
import type { SkeletonRecord } from '../read-skeleton-records';

/**
 * In open/ because it uses the shared row steps (core/rows): a format's readers sit below rows
 * in the layer order, its descriptor and open/ above (scripts/check-layers.mjs).
 * One row per `row` value, in the order rows first appear; each record a closed span, nested
 * by time containment (rows/nest-by-time.ts: depth is the lane). The shared steps finish a row:
 * rowCounts (extent and counts over its items) and sortItems (the items' order every view
 * expects). The descriptor packs the rows (packRows) as the store keeps them.
 */
export function buildSkeletonRows(records: readonly SkeletonRecord[]): Row[] {
  const byRow = new Map<string, SkeletonRecord[]>();
  for (const record of records) {
    const list = byRow.get(record.row);
    if (list) list.push(record);
    else byRow.set(record.row, [record]);
  }
  return [...byRow].map(([key, rowRecords], rowId) => {
    const { depth } = nestByTime(rowRecords.map((r) => ({ start: r.startSec, end: r.endSec })));
    const items = rowRecords.map((record, i) => spanOf(record, depth[i]));
    return {
      row_id: rowId,
      sample_index: rowId,
      group_index: null,
      source: key,
      status: null,
      label: null,
      reward: null,
      trace_id: null,
      attempt: null,
      ...rowCounts(items),
      items: sortItems(items),
    };
  });
}

function spanOf(record: SkeletonRecord, depth: number): SpanItem {
  const attrs: Attrs = {};
  for (const [key, value] of Object.entries(record.fields)) attrs[key] = value as AttrValue;
  return {
    type: 'span',
    state: 'closed_span',
    name: record.name,
    start_ts: record.startSec,
    end_ts: record.endSec,
    display_end_ts: record.endSec,
    attempt: null,
    span_id: String(record.line),
    parent_span_id: null,
    parent_span_name: null,
    lane: depth,
    depth,
    attrs: { start_attrs: attrs, end_attrs: {} },
  };
}
