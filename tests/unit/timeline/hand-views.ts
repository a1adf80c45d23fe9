import type { ItemView, RowView } from '../../../src-main/core/api/trace-api';

// Hand-built views for the timeline's unit tests: what getRows answers, every value written
// out, so a test reads its expectations off the items it made.

/** A span item (unless `over` says otherwise) of lane 0, depth 0, as long as it says. */
export const itemView = (
  over: Partial<ItemView> & Pick<ItemView, 'index' | 'name' | 'startSec'>,
): ItemView => ({
  kind: 'span',
  endSec: over.startSec,
  lane: 0,
  depth: 0,
  ongoing: false,
  parentIndex: -1,
  ...over,
});

/** A row of these items, 0..100 s, of no sample facts. */
export const rowView = (rowId: number, items: ItemView[], laneCount = 2): RowView => ({
  rowId,
  sampleIndex: rowId,
  groupIndex: null,
  source: null,
  status: null,
  reward: null,
  attempt: null,
  traceId: null,
  label: null,
  startSec: 0,
  endSec: 100,
  laneCount,
  openSpanCount: 0,
  orphanCount: 0,
  items,
});
