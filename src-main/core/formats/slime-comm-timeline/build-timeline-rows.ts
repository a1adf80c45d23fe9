import type { Attrs, AttrValue, Row, RowItem } from '../../model/row';
import type { TimelineRecord } from './parse-timeline-records';

/**
 * One row per trainer process (role, rank): spans are `[api_launch, completion]` bars, events
 * instants, nested by time containment (a bucket's send inside its sync); a span that overlaps
 * without containing takes the next free lane. Rows in (role, rank) order.
 */
export function buildTimelineRows(
  records: TimelineRecord[],
  finishRow: (items: RowItem[]) => Omit<Row, 'items' | RowFields> & { items: RowItem[] },
): Row[] {
  const byProcess = new Map<string, TimelineRecord[]>();
  for (const record of records) {
    const key = JSON.stringify([record.role, record.rank]);
    const list = byProcess.get(key) ?? [];
    list.push(record);
    byProcess.set(key, list);
  }
  const keys = [...byProcess.keys()].sort((a, b) => {
    const [roleA, rankA] = JSON.parse(a) as [string, number];
    const [roleB, rankB] = JSON.parse(b) as [string, number];
    return roleA < roleB ? -1 : roleA > roleB ? 1 : rankA - rankB;
  });
  return keys.map((key, rowId) => processRow(byProcess.get(key)!, rowId, finishRow));
}

/** the row keys this reader fills; the rest (extent, counts, item order) come from finishRow */
type RowFields =
  | 'row_id'
  | 'sample_index'
  | 'group_index'
  | 'source'
  | 'status'
  | 'label'
  | 'reward'
  | 'trace_id'
  | 'attempt';

function processRow(
  records: TimelineRecord[],
  rowId: number,
  finishRow: (items: RowItem[]) => Omit<Row, 'items' | RowFields> & { items: RowItem[] },
): Row {
  const first = records[0];
  return {
    row_id: rowId,
    sample_index: first.rank,
    group_index: null,
    source: `${first.role} ${first.rank}`,
    status: null,
    label: null,
    reward: null,
    trace_id: typeof first.fields.run_id === 'string' ? first.fields.run_id : null,
    attempt: null,
    ...finishRow(placeItems(records)),
  };
}

function placeItems(records: TimelineRecord[]): RowItem[] {
  const spans = records
    .filter((r) => r.recordType === 'span')
    .sort((a, b) => a.startSec - b.startSec || b.endSec - a.endSec || a.sequenceId - b.sequenceId);
  const laneEnds: number[] = [];
  // open spans that may contain the next one: lane, end and name
  const stack: { lane: number; end: number; name: string }[] = [];
  const items: RowItem[] = [];
  for (const span of spans) {
    while (stack.length > 0 && stack[stack.length - 1].end <= span.startSec) stack.pop();
    const parent =
      stack.length > 0 && span.endSec <= stack[stack.length - 1].end
        ? stack[stack.length - 1]
        : null;
    let lane = parent === null ? 0 : parent.lane + 1;
    while ((laneEnds[lane] ?? -Infinity) > span.startSec) lane++;
    laneEnds[lane] = span.endSec;
    stack.push({ lane, end: span.endSec, name: span.operation });
    items.push({
      type: 'span',
      state: 'closed_span',
      name: span.operation,
      start_ts: span.startSec,
      end_ts: span.endSec,
      display_end_ts: span.endSec,
      attempt: null,
      span_id: String(span.sequenceId),
      parent_span_id: null,
      parent_span_name: parent?.name ?? null,
      lane,
      depth: parent === null ? 0 : parent.lane + 1,
      attrs: { start_attrs: recordAttrs(span), end_attrs: {} },
    });
  }
  const placed = items.slice();
  for (const event of records.filter((r) => r.recordType === 'event')) {
    // an instant sits on the lane of the innermost span around it
    let lane = 0;
    for (const item of placed) {
      if (
        item.type === 'span' &&
        item.start_ts <= event.startSec &&
        event.startSec <= item.display_end_ts
      ) {
        lane = Math.max(lane, item.lane);
      }
    }
    items.push({
      type: 'event',
      state: 'point_event',
      name: event.operation,
      ts: event.startSec,
      attempt: null,
      span_id: String(event.sequenceId),
      parent_span_id: null,
      parent_span_name: null,
      lane,
      depth: lane,
      attrs: recordAttrs(event),
    });
  }
  return items;
}

/** Every key of the record, for details (numbers above 2^53 stay as JSON gave them). */
function recordAttrs(record: TimelineRecord): Attrs {
  const attrs: Attrs = {};
  for (const [key, value] of Object.entries(record.fields)) attrs[key] = value as AttrValue;
  return attrs;
}
