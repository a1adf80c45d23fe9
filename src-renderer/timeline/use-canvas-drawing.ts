import { useEffect, useRef, type RefObject } from 'react';
import { useThemeStore } from '../theme/theme-store';
import {
  drawTimeline,
  type DrawOptions,
  type DrawRow,
  type HitBox,
  type RowDrawStats,
  type ThemeColours,
} from './draw-timeline';

/** What a canvas is drawn with besides its rows: drawTimeline's options less the theme. */
export type CanvasDrawing = Omit<DrawOptions, 'theme'>;

/**
 * Keeps a timeline's canvas drawn by drawTimeline: whenever what is visible changes (rows,
 * window, theme, selection, hover), sizes it to its box at the screen's pixel ratio, draws and
 * hands back the hit boxes and what each row drew. The file timeline and the lane timeline
 * both draw here; `rows` must keep its identity while nothing in it changes (useMemo).
 */
export function useCanvasDrawing(
  canvas: RefObject<HTMLCanvasElement | null>,
  rows: DrawRow[],
  drawing: CanvasDrawing,
  onDrawn: (hits: HitBox[], stats: Map<number, RowDrawStats>) => void,
): void {
  // the canvas reads theme colours when it draws: a theme switch must redraw it
  const theme = useThemeStore((s) => s.resolved);
  const drawn = useRef(onDrawn);
  drawn.current = onDrawn;
  const { width, height, window, laneHeight, hiddenNames, highlightNames } = drawing;
  const { selected, idleGaps, hovered } = drawing;
  useEffect(() => {
    const el = canvas.current;
    if (!el) return;
    const dpr = globalThis.devicePixelRatio || 1;
    el.width = Math.round(width * dpr);
    el.height = Math.round(height * dpr);
    const ctx = el.getContext('2d');
    if (!ctx) return;
    ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
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
    rows,
    width,
    height,
    window,
    laneHeight,
    hiddenNames,
    highlightNames,
    selected,
    idleGaps,
    hovered,
    theme,
  ]);
}

/** The theme's colours as the page's CSS has them now. */
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
