import { useEffect, useRef, type RefObject } from 'react';
import { useThemeStore } from '../theme/theme-store';
import { drawTimeline, type DrawRow, type HitBox, type RowDrawStats } from './draw-timeline';
import type { LaneLayout } from './lane-group';
import type { Window } from './time-window';
import { readTheme } from './TimelineCanvas';

export interface LaneScene {
  layout: LaneLayout;
  first: number;
  last: number;
  scrollTop: number;
  window: Window;
  width: number;
  height: number;
  laneHeight: number;
  hiddenNames: Set<string>;
  highlightNames: string[] | null;
  /** the selected entry (its index in the layout) and item */
  selected: { rowId: number; index: number | null } | null;
  /** the item under the pointer (its entry index and item): its links are drawn */
  hovered: { rowId: number; index: number } | null;
}

/**
 * Keeps a lane timeline's canvas drawn by drawTimeline, the file timeline's own drawing: each
 * visible row is drawn under its entry index as row id, so hits and stats name entries.
 */
export function useLaneCanvas(
  canvas: RefObject<HTMLCanvasElement | null>,
  scene: LaneScene,
  onDrawn: (hits: HitBox[], stats: Map<number, RowDrawStats>) => void,
): void {
  const theme = useThemeStore((s) => s.resolved);
  const drawn = useRef(onDrawn);
  drawn.current = onDrawn;
  const { layout, first, last, scrollTop, window, width, height, laneHeight } = scene;
  const { hiddenNames, highlightNames, selected, hovered } = scene;
  useEffect(() => {
    const el = canvas.current;
    if (!el) return;
    const dpr = globalThis.devicePixelRatio || 1;
    el.width = Math.round(width * dpr);
    el.height = Math.round(height * dpr);
    const ctx = el.getContext('2d');
    if (!ctx) return;
    ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
    const rows: DrawRow[] = [];
    let shade = 0;
    for (let i = first; i <= last && i < layout.entries.length; i++) {
      const entry = layout.entries[i];
      if (entry.kind === 'header') {
        shade = 0;
        continue;
      }
      shade++;
      if (!entry.row.row) continue;
      rows.push({
        row: { ...entry.row.row, rowId: i },
        y: layout.tops[i] - scrollTop,
        expanded: entry.row.expanded,
        shaded: shade % 2 === 0,
        dimmed: false,
      });
    }
    const result = drawTimeline(ctx, rows, {
      width,
      height,
      window,
      theme: readTheme(),
      hiddenNames,
      highlightNames,
      selected,
      laneHeight,
      hovered,
    });
    drawn.current(result.hits, result.stats);
  }, [
    canvas,
    layout,
    first,
    last,
    scrollTop,
    window,
    width,
    height,
    laneHeight,
    hiddenNames,
    highlightNames,
    selected,
    hovered,
    theme,
  ]);
}
