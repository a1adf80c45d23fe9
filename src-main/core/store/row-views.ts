import type { ItemView, RowFacts, RowOrder, RowView, SpanDetails } from '../api/trace-api';
import type { SpanItem } from '../model/row';
import { ITEM_FLAG, ITEM_KIND, type TraceStore } from './build-store';
import { unpackItem, unpackItems } from '../rows/packed-items';

const KIND_NAMES: ItemView['kind'][] = ['span', 'event', 'orphan'];

/** What the timeline draws for the given rows: relative times, lanes, flags, PD phases. */
export function getRowViews(store: TraceStore, rowIds: number[]): RowView[] {
  const out: RowView[] = [];
  for (const rowId of rowIds) {
    const r = store.rowIndexById.get(rowId);
    if (r === undefined) continue;
    const row = store.rows[r];
    const rowItems = unpackItems(row.packed);
    const items: ItemView[] = [];
    const base = store.rowItemOffset[r];
    const spanIndex = new Map<string, number>();
    rowItems.forEach((item, k) => {
      if (item.type === 'span' && item.span_id) spanIndex.set(item.span_id, k);
    });
    for (let i = base; i < store.rowItemOffset[r + 1]; i++) {
      const item = rowItems[i - base];
      const flags = store.itemFlags[i];
      const view: ItemView = {
        index: i - base,
        kind: KIND_NAMES[store.itemKind[i]],
        name: store.strings[store.itemName[i]],
        startSec: store.itemStart[i],
        endSec: store.itemEnd[i],
        lane: store.itemLane[i],
        depth: store.itemDepth[i],
        ongoing: (flags & ITEM_FLAG.ongoing) !== 0,
        parentIndex: store.itemParent[i],
      };
      if (item.type === 'span') {
        if (view.ongoing) view.clippedBy = String(item.attrs.end_attrs.clipped_by ?? '');
        if (item.pd) view.pd = { role: item.pd.role, phases: item.pd.phases };
        const hint = spanHint(item);
        if (hint) view.hint = hint;
      }
      if (flags & ITEM_FLAG.error) view.error = true;
      if (item.lane_label) view.laneLabel = item.lane_label;
      if (item.links && item.links.length > 0) {
        const targets = item.links
          .map((link) => spanIndex.get(link.span_id))
          .filter((k): k is number => k !== undefined);
        if (targets.length > 0) view.links = targets;
      }
      items.push(view);
    }
    out.push({
      rowId,
      sampleIndex: row.sample_index,
      groupIndex: row.group_index,
      source: row.source,
      status: row.status,
      reward: row.reward,
      attempt: row.attempt,
      traceId: row.trace_id,
      label: row.label,
      startSec: store.rowStart[r],
      endSec: store.rowEnd[r],
      laneCount: store.rowLaneCount[r],
      openSpanCount: row.open_span_count,
      orphanCount: row.orphan_count,
      items,
    });
  }
  return out;
}

/** A short text for inside a bar: tokens generated, or the tool that ran. */
function spanHint(item: SpanItem): string | undefined {
  const end = item.attrs.end_attrs;
  const start = item.attrs.start_attrs;
  if (typeof end.completion_tokens === 'number') return `${end.completion_tokens} tok`;
  if (typeof start.tool === 'string') return start.tool;
  return undefined;
}

export function getSpanDetails(store: TraceStore, rowId: number, index: number): SpanDetails {
  const r = store.rowIndexById.get(rowId);
  const item = r === undefined ? undefined : unpackItem(store.rows[r].packed, index);
  if (r === undefined || !item) throw new RangeError(`no item ${index} in row ${rowId}`);
  const i = store.rowItemOffset[r] + index;
  const isSpan = item.type === 'span';
  const base = {
    rowId,
    index,
    kind: KIND_NAMES[store.itemKind[i]] ?? (ITEM_KIND.span as never),
    name: item.name,
    state: item.state,
    startSec: store.itemStart[i],
    endSec: isSpan
      ? item.end_ts === null
        ? null
        : item.end_ts - store.globalStartSec
      : store.itemStart[i],
    displayEndSec: store.itemEnd[i],
    durationSec: store.itemEnd[i] - store.itemStart[i],
    spanId: item.span_id,
    parentSpanId: item.parent_span_id,
    parentSpanName: item.parent_span_name,
    attempt: item.attempt,
    startAttrs: isSpan ? item.attrs.start_attrs : item.attrs,
    endAttrs: isSpan ? item.attrs.end_attrs : {},
  };
  const details: SpanDetails = base;
  if (isSpan && item.pd) details.pd = item.pd;
  if (item.otel)
    details.otel = {
      ...item.otel,
      service: item.service ?? null,
      missingParent: item.missing_parent ?? false,
    };
  if (item.links)
    details.links = item.links.map((l) => ({
      traceId: l.trace_id,
      spanId: l.span_id,
      dangling: l.dangling,
    }));
  return details;
}

/** A query's row ids as the order the contract answers, tagged with the store they came from. */
export function rowOrderOf(store: TraceStore, rowIds: Int32Array): RowOrder {
  return { rowIds, total: store.rowCount, storeVersion: store.version };
}

/**
 * Every row's id, lanes, start and end in the store's order: the store's own columns (a
 * structured clone or base64 copies them; nothing is computed per call).
 */
export function rowFactsOf(store: TraceStore): RowFacts {
  return {
    storeVersion: store.version,
    rowIds: store.rowId,
    laneCounts: store.rowLaneCount,
    startSec: store.rowStart,
    endSec: store.rowEnd,
  };
}
