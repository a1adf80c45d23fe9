import { useCallback, useMemo, useState } from 'react';
import { defaultExpandedRows, expandedFits, layoutRows, type RowLayout } from './row-layout';

export type ExpansionMode = 'auto' | 'expanded' | 'collapsed';

export interface RowExpansion {
  layout: RowLayout;
  expandedAt(index: number): boolean;
  /** whether rows are, on the whole, expanded (what "expand/collapse all" would undo) */
  allExpanded: boolean;
  toggleRow(rowId: number): void;
  setAll(expanded: boolean): void;
}

/**
 * Which rows show all their lanes. By default ('auto') rows are expanded only when every row,
 * expanded, fits the view; otherwise collapsed to one lane, so a screen shows many samples.
 * `openLeading` (rows that are each a screen of lanes: a GPU profile's ranks): when not all
 * fit, the first rows are expanded all the same, the first always and the next while they
 * fit (leadingExpanded), as Perfetto and HTA show a rank's streams. A row's own toggle flips
 * it against that default.
 */
export function useRowExpansion(
  rowIds: Int32Array,
  laneCounts: ArrayLike<number>,
  laneHeight: number,
  viewHeight: number,
  openLeading = false,
): RowExpansion {
  const [mode, setMode] = useState<ExpansionMode>('auto');
  const [flipped, setFlipped] = useState<Set<number>>(new Set());
  const fitsExpanded = useMemo(
    () => expandedFits(laneCounts, viewHeight, laneHeight),
    [laneCounts, laneHeight, viewHeight],
  );
  const allExpanded = mode === 'expanded' || (mode === 'auto' && fitsExpanded);
  /** rows [0, leading) expanded by default; every row when allExpanded */
  const leading = useMemo(
    () =>
      mode === 'auto'
        ? defaultExpandedRows(laneCounts, viewHeight, laneHeight, openLeading)
        : mode === 'expanded'
          ? laneCounts.length
          : 0,
    [mode, openLeading, laneCounts, viewHeight, laneHeight],
  );
  const expandedAt = useCallback(
    (i: number) => i < leading !== flipped.has(rowIds[i]),
    [leading, flipped, rowIds],
  );
  // no row flipped nor a leading few (the usual case): one answer for every row, not a
  // lookup per row
  const uniform = flipped.size === 0 && (leading === 0 || leading === laneCounts.length);
  const layout = useMemo(
    () => layoutRows(laneCounts, uniform ? leading > 0 : expandedAt, laneHeight),
    [laneCounts, expandedAt, laneHeight, uniform, leading],
  );
  const toggleRow = useCallback((rowId: number) => {
    setFlipped((prev) => {
      const next = new Set(prev);
      if (next.has(rowId)) next.delete(rowId);
      else next.add(rowId);
      return next;
    });
  }, []);
  const setAll = useCallback((expanded: boolean) => {
    setMode(expanded ? 'expanded' : 'collapsed');
    setFlipped(new Set());
  }, []);
  return { layout, expandedAt, allExpanded, toggleRow, setAll };
}
