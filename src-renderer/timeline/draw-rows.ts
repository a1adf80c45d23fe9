import type { RowView } from '../../src-main/core/api/trace-api';
import type { DrawRow } from './draw-timeline';
import type { RowLayout } from './row-layout';

/** What is on screen of a file's timeline: the rows drawTimeline is handed. */
export interface ShownRows {
  rowIds: ArrayLike<number>;
  rowsById: Map<number, RowView>;
  layout: RowLayout;
  /** the first and last row index shown */
  first: number;
  last: number;
  scrollTop: number;
  expandedAt(index: number): boolean;
  dimmedRow(rowId: number): boolean;
}

/**
 * The rows drawn, each at its top on the canvas (its layout top less the scroll), every second
 * one shaded. The app's canvas, its picture and the headless picture all draw these.
 */
export function drawRowsOf(shown: ShownRows): DrawRow[] {
  const { rowIds, rowsById, layout, first, last, scrollTop } = shown;
  const rows: DrawRow[] = [];
  for (let i = first; i <= last && i < rowIds.length; i++) {
    const row = rowsById.get(rowIds[i]);
    if (!row) continue;
    rows.push({
      row,
      y: layout.tops[i] - scrollTop,
      expanded: shown.expandedAt(i),
      shaded: i % 2 === 1,
      dimmed: shown.dimmedRow(row.rowId),
    });
  }
  return rows;
}
