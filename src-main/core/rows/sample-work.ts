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

/**
 * Each row's sampleWorkEnd, its items walked once and kept: the rollout's figures ask it of
 * every row twice (stragglers, groups), and a walk of 100k rows' items is a tenth of a second.
 */
export class WorkEnds {
  /** per row (by place in `rows`): its work end with no bound, and its earliest item end (NaN: not walked) */
  private readonly ends: Float64Array;
  private readonly earliest: Float64Array;
  private readonly item = new PackedItemCursor();

  constructor(private readonly rows: readonly PackedRow[]) {
    this.ends = new Float64Array(rows.length).fill(NaN);
    this.earliest = new Float64Array(rows.length);
  }

  /** sampleWorkEnd(rows[r], fromSec) */
  of(r: number, fromSec = -Infinity): number {
    const row = this.rows[r];
    if (Number.isNaN(this.ends[r])) {
      let end = -Infinity;
      let earliest = Infinity;
      const item = this.item.reset(row.packed);
      while (item.next()) {
        if (item.isSpan && GROUP_WIDE_SPANS.has(item.name)) continue;
        const e = item.displayEnd;
        if (e > end) end = e;
        if (e < earliest) earliest = e;
      }
      this.ends[r] = end === -Infinity ? row.end : end;
      this.earliest[r] = earliest;
    }
    // a bound at or before every item's end leaves them all: the kept end is the answer
    return fromSec <= this.earliest[r] ? this.ends[r] : sampleWorkEnd(row, fromSec);
  }
}
