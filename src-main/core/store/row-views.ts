import type {
  ItemView,
  RowFacts,
  RowOrder,
  RowView,
  RowWindow,
  SpanDetails,
} from '../api/trace-api';
import { sourceText, type PackedItems, type PdPhase } from '../model/row';
import { ITEM_FLAG, ITEM_KIND, type TraceStore } from './build-store';
import { PackedItemCursor, unpackItem } from '../rows/packed-items';
import { chooseRowItems, ROW_ITEMS_WHOLE, seekItem, type RowDetailChoice } from './row-detail';

const KIND_NAMES: ItemView['kind'][] = ['span', 'event', 'orphan'];

/**
 * What the timeline draws for the given rows: relative times, lanes, flags, PD phases. Items
 * are read in place (a Chrome process row can hold a million: no item objects are made). A row
 * of more than ROW_ITEMS_WHOLE items answers only what draws `window` (row-detail.ts), with
 * `detail` saying so; smaller rows answer every item, whatever the window.
 */
export function getRowViews(
  store: TraceStore,
  rowIds: number[],
  window: RowWindow | null = null,
): RowView[] {
  const out: RowView[] = [];
  for (const rowId of rowIds) {
    const r = store.rowIndexById.get(rowId);
    if (r === undefined) continue;
    const row = store.rows[r];
    const count = store.rowItemOffset[r + 1] - store.rowItemOffset[r];
    const choice = count > ROW_ITEMS_WHOLE ? chooseRowItems(store, r, window) : null;
    const view: RowView = {
      rowId,
      sampleIndex: row.sample_index,
      groupIndex: row.group_index,
      source: sourceText(row.source),
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
      items: itemViews(store, r, choice),
    };
    if (choice)
      view.detail = {
        startSec: choice.startSec,
        endSec: choice.endSec,
        resolutionSec: choice.resolutionSec,
        itemCount: count,
      };
    out.push(view);
  }
  return out;
}

/** Row r's items as the timeline draws them: all, or those `choice` keeps. */
function itemViews(store: TraceStore, r: number, choice: RowDetailChoice | null): ItemView[] {
  const row = store.rows[r];
  const items: ItemView[] = [];
  const base = store.rowItemOffset[r];
  const item = new PackedItemCursor();
  item.reset(row.packed);
  if (choice === null) {
    // the row's spans by id, made only for a row with links (ids made as text to match them)
    let spanIndex: Map<string, number> | null = null;
    const spansById = () => (spanIndex ??= spanIndexOf(row.packed));
    for (let k = 0; item.next(); k++) {
      const view = itemView(store, base + k, k, item);
      const links = item.extra('links');
      if (links && links.length > 0)
        linkTo(
          view,
          links.map((link) => link.span_id),
          spansById(),
        );
      items.push(view);
    }
    return items;
  }
  // a chosen row: only the items sent are read (from the checkpoint before each run of them),
  // and its links only among them (a link into one not sent is not drawn), once all are known
  const spanIndex = new Map<string, number>();
  const linked: { view: ItemView; spanIds: string[] }[] = [];
  const { kept, walk } = choice;
  for (let k = 0; k < kept.length; k++) {
    if (kept[k] === 0) continue;
    seekItem(item, row.packed, walk, k);
    item.next();
    const view = itemView(store, base + k, k, item);
    if (item.isSpan && item.hasSpanId) spanIndex.set(item.spanId!, k);
    const links = item.extra('links');
    if (links && links.length > 0) linked.push({ view, spanIds: links.map((l) => l.span_id) });
    items.push(view);
  }
  for (const { view, spanIds } of linked) linkTo(view, spanIds, spanIndex);
  return items;
}

/** Sets the view's links: the items of these span ids in the row (as sent), if any. */
function linkTo(view: ItemView, spanIds: string[], spans: Map<string, number>): void {
  const targets = spanIds.map((id) => spans.get(id)).filter((t): t is number => t !== undefined);
  if (targets.length > 0) view.links = targets;
}

/** The item the cursor has just read (row item `k`, store item `i`) as the timeline draws it. */
function itemView(store: TraceStore, i: number, k: number, item: PackedItemCursor): ItemView {
  const flags = store.itemFlags[i];
  const view: ItemView = {
    index: k,
    kind: KIND_NAMES[store.itemKind[i]],
    name: store.strings[store.itemName[i]],
    startSec: store.itemStart[i],
    endSec: store.itemEnd[i],
    lane: store.itemLane[i],
    depth: store.itemDepth[i],
    ongoing: (flags & ITEM_FLAG.ongoing) !== 0,
    parentIndex: store.itemParent[i],
  };
  if (item.isSpan) {
    if (view.ongoing) view.clippedBy = String(item.attr(1, 'clipped_by') ?? '');
    if (item.pdRole) view.pd = { role: item.pdRole, phases: pdPhases(item) };
    const hint = spanHint(item);
    if (hint) view.hint = hint;
  }
  if (flags & ITEM_FLAG.error) view.error = true;
  const category = item.extra('category');
  if (category) view.category = category;
  const laneLabel = item.extra('lane_label');
  if (laneLabel) view.laneLabel = laneLabel;
  return view;
}

function pdPhases(item: PackedItemCursor): PdPhase[] {
  const phases: PdPhase[] = [];
  for (let k = 0; k < item.pdPhaseCount; k++)
    phases.push({ phase: item.pdPhaseName(k), durationSec: item.pdPhaseDuration(k) });
  return phases;
}

/** A short text for inside a bar: tokens generated, or the tool that ran. */
function spanHint(item: PackedItemCursor): string | undefined {
  const tokens = item.attr(1, 'completion_tokens');
  if (typeof tokens === 'number') return `${tokens} tok`;
  const tool = item.attr(0, 'tool');
  if (typeof tool === 'string') return tool;
  // a trainer's weight sync: which bucket of which version (slime's communication timeline)
  const bucket = item.attr(0, 'bucket_id');
  if (typeof bucket === 'number') {
    const version = item.attr(0, 'weight_version');
    return typeof version === 'number' ? `bucket ${bucket} · v${version}` : `bucket ${bucket}`;
  }
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
 * structured clone copies them, HTTP writes them as they are; nothing is computed per call;
 * the ids are left out when row i's id is i).
 */
export function rowFactsOf(store: TraceStore): RowFacts {
  return {
    storeVersion: store.version,
    rowIds: idsAreIndexes(store.rowId, store.rowCount) ? null : store.rowId,
    laneCounts: store.rowLaneCount,
    startSec: store.rowStart,
    endSec: store.rowEnd,
  };
}

/** Whether row i's id is i for every row. */
function idsAreIndexes(rowIds: Int32Array, n: number): boolean {
  for (let r = 0; r < n; r++) if (rowIds[r] !== r) return false;
  return true;
}

/** A row's spans by their id (the last span of an id), as item indexes. */
function spanIndexOf(packed: PackedItems): Map<string, number> {
  const spans = new Map<string, number>();
  const item = new PackedItemCursor().reset(packed);
  for (let k = 0; item.next(); k++) if (item.isSpan && item.hasSpanId) spans.set(item.spanId!, k);
  return spans;
}
