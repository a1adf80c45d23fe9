import type { AttrValue, Attrs, Row, SpanItem } from '../model/row';
import type { RequestMetricsRecord } from '../model/run-records';
import { rowCounts } from './build-rows';

/**
 * A request record's row: one span from when the server received it to when it finished (none
 * without both) holding the record's one-value keys (nested dicts flattened as `key.inner`);
 * the token lists and per-token log-probs stay in the file, read with the record's details.
 */
export function recordRow(record: RequestMetricsRecord, meta: Record<string, unknown>): Row {
  const items: SpanItem[] = [];
  const start =
    record.receivedSec ??
    (record.finishedSec !== null && record.e2eSec !== null
      ? record.finishedSec - record.e2eSec
      : null);
  if (start !== null && record.finishedSec !== null && record.finishedSec >= start) {
    items.push({
      type: 'span',
      state: 'closed_span',
      name: 'request',
      start_ts: start,
      end_ts: record.finishedSec,
      display_end_ts: record.finishedSec,
      attempt: null,
      span_id: record.rid,
      parent_span_id: null,
      parent_span_name: null,
      lane: 0,
      depth: 0,
      attrs: { start_attrs: flatAttrs(meta), end_attrs: {} },
    });
  }
  return {
    row_id: record.rowId,
    sample_index: record.rowId,
    group_index: null,
    source: record.dpRank === null ? null : `DP ${record.dpRank}`,
    status: record.finishType,
    label: record.rid,
    reward: null,
    trace_id: record.rid,
    attempt: null,
    ...rowCounts(items),
    items,
  };
}

function flatAttrs(meta: Record<string, unknown>): Attrs {
  // for-in, not Object.entries: a pair array per key was a tenth of a large log's open
  const attrs: Attrs = {};
  for (const key in meta) {
    const value = meta[key];
    if (value === null || typeof value !== 'object') attrs[key] = value as AttrValue;
    else if (!Array.isArray(value)) {
      const inner = value as Record<string, unknown>;
      for (const name in inner) {
        const v = inner[name];
        if (v === null || typeof v !== 'object') attrs[`${key}.${name}`] = v as AttrValue;
      }
    }
  }
  return attrs;
}
