import { useEffect, useRef, type RefObject } from 'react';
import type { ShownOrder } from '../host/shown-order';
import type { RowView } from '../../src-main/core/api/trace-api';
import { useThemeStore } from '../theme/theme-store';
import { drawTimeline, type HitBox, type RowDrawStats, type ThemeColours } from './draw-timeline';
import { drawRowsOf } from './draw-rows';
import type { RowLayout } from './row-layout';
import type { Window } from './time-window';
import type { IdleGap } from './idle-gaps';

export interface CanvasScene {
  order: ShownOrder | null;
  rowsById: Map<number, RowView>;
  layout: RowLayout;
  first: number;
  last: number;
  scrollTop: number;
  expandedAt(index: number): boolean;
  dimmedRow(rowId: number): boolean;
  window: Window;
  width: number;
  height: number;
  laneHeight: number;
  hiddenNames: Set<string>;
  highlightNames: string[] | null;
  selected: { rowId: number; index: number | null } | null;
  /** (ours) idle time between a resumed sample's attempts, per row */
  idleGaps?: Map<number, IdleGap>;
  /** the item under the pointer (its links are drawn) */
  hovered: { rowId: number; index: number } | null;
}

/**
 * Keeps the canvas drawn: whenever what is visible changes (rows, window, theme, selection),
 * draws with drawTimeline and hands back the hit boxes and what each row drew.
 */
export function useCanvasDrawing(
  canvas: RefObject<HTMLCanvasElement | null>,
  scene: CanvasScene,
  onDrawn: (hits: HitBox[], stats: Map<number, RowDrawStats>) => void,
): void {
  // the canvas reads theme colours when it draws: a theme switch must redraw it
  const theme = useThemeStore((s) => s.resolved);
  const drawn = useRef(onDrawn);
  drawn.current = onDrawn;
  const { order, rowsById, layout, first, last, scrollTop, expandedAt, dimmedRow } = scene;
  const { window, width, height, laneHeight, hiddenNames, highlightNames, selected, idleGaps } =
    scene;
  const { hovered } = scene;
  useEffect(() => {
    const el = canvas.current;
    if (!el) return;
    const dpr = globalThis.devicePixelRatio || 1;
    el.width = Math.round(width * dpr);
    el.height = Math.round(height * dpr);
    const ctx = el.getContext('2d');
    if (!ctx) return;
    ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
    const rows = drawRowsOf({
      rowIds: order?.rowIds ?? new Int32Array(0),
      rowsById,
      layout,
      first,
      last,
      scrollTop,
      expandedAt,
      dimmedRow,
    });
    const result = drawTimeline(ctx, rows, {
      width,
      height,
      window,
      theme: readTheme(),
      hiddenNames,
      highlightNames,
      selected,
      laneHeight,
      idleGaps,
      hovered,
    });
    drawn.current(result.hits, result.stats);
  }, [
    canvas,
    order,
    rowsById,
    layout,
    first,
    last,
    scrollTop,
    expandedAt,
    dimmedRow,
    window,
    width,
    height,
    laneHeight,
    hiddenNames,
    highlightNames,
    selected,
    idleGaps,
    hovered,
    theme,
  ]);
}

export function readTheme(): ThemeColours {
  const css = getComputedStyle(document.documentElement);
  const v = (name: string, fallback: string) => css.getPropertyValue(name).trim() || fallback;
  return {
    bg: v('--bg', '#ffffff'),
    rowAlt: v('--row-alt', '#f4f4f4'),
    grid: v('--grid', '#e0e0e0'),
    fg: v('--fg', '#111111'),
    fgMuted: v('--fg-muted', '#666666'),
    danger: v('--danger', '#d1242f'),
    accent: v('--accent', '#2f6feb'),
  };
}
