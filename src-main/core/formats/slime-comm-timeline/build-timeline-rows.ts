import type { Attrs, AttrValue, Row, RowItem, RowOwnField } from '../../model/row';
import type { TimelineRecord } from './parse-timeline-records';

/** Lanes' end times (core/rows' LaneEnds, given by the descriptor): the lowest lane free at a time. */
export interface FreeLanes {
  firstFree(from: number, at: number): number;
  set(lane: number, end: number): void;
}

/**
 * One row per trainer process (role, rank): spans are `[api_launch, completion]` bars, events
 * instants, nested by time containment (a bucket's send inside its sync); a span that overlaps
 * without containing takes the next free lane. Rows in (role, rank) order.
 */
export function buildTimelineRows(
  records: TimelineRecord[],
  finishRow: (items: RowItem[]) => Omit<Row, 'items' | RowOwnField> & { items: RowItem[] },
  freeLanes: () => FreeLanes,
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
  return keys.map((key, rowId) => processRow(byProcess.get(key)!, rowId, finishRow, freeLanes()));
}

function processRow(
  records: TimelineRecord[],
  rowId: number,
  finishRow: (items: RowItem[]) => Omit<Row, 'items' | RowOwnField> & { items: RowItem[] },
  laneEnds: FreeLanes,
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
    ...finishRow(placeItems(records, laneEnds)),
  };
}

function placeItems(records: TimelineRecord[], laneEnds: FreeLanes): RowItem[] {
  // one sweep in time order; at one instant spans first (longest first), then events
  const ordered = records
    .slice()
    .sort(
      (a, b) =>
        a.startSec - b.startSec ||
        (a.recordType === b.recordType ? 0 : a.recordType === 'span' ? -1 : 1) ||
        b.endSec - a.endSec ||
        a.sequenceId - b.sequenceId,
    );
  // open spans that may contain the next record: lane, end and name
  const stack: { lane: number; end: number; name: string }[] = [];
  const items: RowItem[] = [];
  for (const record of ordered) {
    if (record.recordType === 'event') {
      // an instant sits on the lane of the innermost span around it (its end included)
      while (stack.length > 0 && stack[stack.length - 1].end < record.startSec) stack.pop();
      const lane = stack.length > 0 ? stack[stack.length - 1].lane : 0;
      items.push({
        type: 'event',
        state: 'point_event',
        name: record.operation,
        ts: record.startSec,
        attempt: null,
        span_id: String(record.sequenceId),
        parent_span_id: null,
        parent_span_name: stack.length > 0 ? stack[stack.length - 1].name : null,
        lane,
        depth: lane,
        attrs: recordAttrs(record),
      });
      continue;
    }
    while (stack.length > 0 && stack[stack.length - 1].end <= record.startSec) stack.pop();
    const parent =
      stack.length > 0 && record.endSec <= stack[stack.length - 1].end
        ? stack[stack.length - 1]
        : null;
    const lane = laneEnds.firstFree(parent === null ? 0 : parent.lane + 1, record.startSec);
    laneEnds.set(lane, record.endSec);
    stack.push({ lane, end: record.endSec, name: record.operation });
    items.push({
      type: 'span',
      state: 'closed_span',
      name: record.operation,
      start_ts: record.startSec,
      end_ts: record.endSec,
      display_end_ts: record.endSec,
      attempt: null,
      span_id: String(record.sequenceId),
      parent_span_id: null,
      parent_span_name: parent?.name ?? null,
      lane,
      depth: parent === null ? 0 : parent.lane + 1,
      attrs: { start_attrs: recordAttrs(record), end_attrs: {} },
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
