import { useCallback, useMemo, useState } from 'react';
import { expandedFits, layoutRows, type RowLayout } from './row-layout';

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
 * A row's own toggle flips it against that default.
 */
export function useRowExpansion(
  rowIds: Int32Array,
  laneCounts: ArrayLike<number>,
  laneHeight: number,
  viewHeight: number,
): RowExpansion {
  const [mode, setMode] = useState<ExpansionMode>('auto');
  const [flipped, setFlipped] = useState<Set<number>>(new Set());
  const fitsExpanded = useMemo(
    () => expandedFits(laneCounts, viewHeight, laneHeight),
    [laneCounts, laneHeight, viewHeight],
  );
  const allExpanded = mode === 'expanded' || (mode === 'auto' && fitsExpanded);
  const expandedAt = useCallback(
    (i: number) => allExpanded !== flipped.has(rowIds[i]),
    [allExpanded, flipped, rowIds],
  );
  // no row flipped (the usual case): one answer for every row, not a lookup per row
  const layout = useMemo(
    () => layoutRows(laneCounts, flipped.size === 0 ? allExpanded : expandedAt, laneHeight),
    [laneCounts, expandedAt, laneHeight, flipped, allExpanded],
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
