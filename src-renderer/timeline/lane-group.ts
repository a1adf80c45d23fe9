import type { ItemView, RowView } from '../../src-main/core/api/trace-api';
import { ROW_PADDING, type RowLayout } from './row-layout';
import type { SpanNameCount } from './legend-entries';

/**
 * One row of a lane group: what a view hands the lane timeline to draw. Its items are on the
 * timeline's clock (seconds from the view's zero: shiftRow moves a file's rows there); the row
 * is undefined until it is fetched (the timeline asks for the rows it shows).
 */
export interface LaneRow {
  /** unique in the timeline: the view maps it back to its file and row */
  key: string;
  /** the row's name, from the data (a trainer's role and rank, a sample, an SGLang request) */
  label: string;
  /** what tells it apart from a row of the same name (a timeline file's folder), muted */
  detail?: string;
  /** the whole name on hover (a path) */
  title?: string;
  /** a short mark after the label (stale, "2 req") */
  badge?: string;
  laneCount: number;
  row: RowView | undefined;
  /** every lane shown, each named; else one lane, items over each other */
  expanded: boolean;
  /** a row that opens rows below it (a sample's server requests): whether they are shown */
  opens?: 'open' | 'closed';
  /** 1 for a row shown under another (its request under a sample) */
  depth?: number;
  /** a data-* mark for tests and styling (stale) */
  mark?: string;
}

/** Rows that belong together under a title: a file's samples, a run's trainer ranks, ... */
export interface LaneGroup {
  id: string;
  title: string;
  /** a muted note after the title (a GPU profile's clock) */
  note?: string;
  /** its rows can be moved in time by dragging its title (a profile on its own clock) */
  shiftable?: boolean;
  rows: LaneRow[];
  /**
   * its top rows' spans counted by their files' workers (FileSummary.barCounts): a run's
   * samples are fetched as they are scrolled to, and a legend counted from the rows fetched so
   * far grew as the user scrolled. Rows under them (a sample's requests) are counted as fetched.
   */
  barCounts?: readonly SpanNameCount[];
}

export type LaneEntry =
  { kind: 'header'; group: LaneGroup } | { kind: 'row'; group: LaneGroup; row: LaneRow };

export const GROUP_HEADER_PX = 20;
/** the label column of a lane timeline, CSS pixels (the run tab's, and its headless picture's) */
export const LANE_LABEL_WIDTH = 260;

/** Every group's header and rows, top to bottom, with their tops and heights. */
export interface LaneLayout extends RowLayout {
  entries: LaneEntry[];
}

export function layoutLaneGroups(groups: readonly LaneGroup[], laneHeight: number): LaneLayout {
  const entries: LaneEntry[] = [];
  for (const group of groups) {
    if (group.rows.length === 0) continue;
    entries.push({ kind: 'header', group });
    for (const row of group.rows) entries.push({ kind: 'row', group, row });
  }
  const tops = new Float64Array(entries.length);
  const heights = new Float64Array(entries.length);
  let y = 0;
  entries.forEach((entry, i) => {
    heights[i] =
      entry.kind === 'header'
        ? GROUP_HEADER_PX
        : (entry.row.expanded ? Math.max(1, entry.row.laneCount) : 1) * laneHeight + ROW_PADDING;
    tops[i] = y;
    y += heights[i];
  });
  return { entries, tops, heights, total: y };
}

/** A row whose item times are `bySec` later: a file's seconds onto a view's clock. */
export function shiftRow(row: RowView, bySec: number): RowView {
  if (bySec === 0) return row;
  const shift = (item: ItemView): ItemView => ({
    ...item,
    startSec: item.startSec + bySec,
    endSec: item.endSec + bySec,
  });
  return {
    ...row,
    startSec: row.startSec + bySec,
    endSec: row.endSec + bySec,
    items: row.items.map(shift),
  };
}

/**
 * The legend's entries, most frequent first: each group's counted spans (its barCounts) or,
 * without them, the spans of its rows fetched so far. Spans with a category (GPU kernels by
 * kind) count under it, categories first.
 */
export function laneSpanNames(groups: readonly LaneGroup[]): SpanNameCount[] {
  const counts = new Map<string, number>();
  const categories = new Map<string, number>();
  const add = (key: string, category: boolean, count: number) => {
    const into = category ? categories : counts;
    into.set(key, (into.get(key) ?? 0) + count);
  };
  for (const group of groups) {
    for (const { name, category, count } of group.barCounts ?? []) add(name, !!category, count);
    for (const { row, depth } of group.rows) {
      if (group.barCounts && !depth) continue;
      for (const item of row?.items ?? [])
        if (item.kind === 'span') add(item.category ?? item.name, item.category !== undefined, 1);
    }
  }
  const byCount = (a: SpanNameCount, b: SpanNameCount) =>
    b.count - a.count || (a.name < b.name ? -1 : 1);
  return [
    ...[...categories].map(([name, count]) => ({ name, count, category: true })).sort(byCount),
    ...[...counts].map(([name, count]) => ({ name, count })).sort(byCount),
  ];
}
