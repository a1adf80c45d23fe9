import type { PackedRow, RowItem } from '../model/row';
import { PackedItemCursor, unpackItems } from './packed-items';

/**
 * Spans opened on a whole group and written into each of its samples (TRACE_MODEL section 2):
 * they end when the group's last sample ends, so they say nothing about one sample's own work.
 */
const GROUP_WIDE_SPANS = new Set(['generate_and_rm_group']);

export function isGroupWide(item: RowItem): boolean {
  return item.type === 'span' && GROUP_WIDE_SPANS.has(item.name);
}

export function itemStart(item: RowItem): number {
  return item.type === 'span' ? item.start_ts : item.ts;
}

export function itemEnd(item: RowItem): number {
  return item.type === 'span' ? item.display_end_ts : item.ts;
}

/** A row's items as merged, disjoint [start, end] intervals (epoch seconds), in time order. */
export function coveredSegments(
  row: PackedRow,
  keep: (item: RowItem) => boolean = () => true,
): [number, number][] {
  const intervals = unpackItems(row.packed)
    .filter(keep)
    .map((item): [number, number] => [itemStart(item), itemEnd(item)])
    .sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  const merged: [number, number][] = [];
  for (const [start, end] of intervals) {
    const last = merged[merged.length - 1];
    if (last && start <= last[1]) last[1] = Math.max(last[1], end);
    else merged.push([start, end]);
  }
  return merged;
}

/**
 * When a sample's own work ended (epoch seconds): its last item apart from group-wide spans,
 * so the four samples of a group do not all "end" when the group does.
 */
export function sampleWorkEnd(row: PackedRow, fromSec = -Infinity): number {
  let end = -Infinity;
  const item = new PackedItemCursor().reset(row.packed);
  while (item.next()) {
    if (item.isSpan && GROUP_WIDE_SPANS.has(item.name)) continue;
    const e = item.displayEnd;
    if (e >= fromSec && e > end) end = e;
  }
  return end === -Infinity ? row.end : end;
}
