import { useRef, useState, type MouseEvent, type RefObject } from 'react';
import type { RowView } from '../../src-main/core/api/trace-api';
import type { DrawRow, HitBox, RowDrawStats } from './draw-timeline';
import { rowAt, type RowLayout } from './row-layout';
import { fitWindow, panWindow, zoomWindow, type Window } from './time-window';
import { decimalsForPixel } from './time-format';
import { axisTicks, clockText, exactClockText, type TimelineClock } from './timeline-clock';
import { useWheelZoom, type Viewport } from './use-viewport';
import { useTimelineKeys } from './use-timeline-keys';
import { readTheme, useCanvasDrawing, type CanvasDrawing } from './use-canvas-drawing';
import { hitAt } from './hit-test';
import { phaseAt } from './pd-segments';
import { steppedItem } from './item-steps';
import { useHovered } from './use-hovered';
import type { PlotBox } from './use-plot-box';
import type { PictureLabel, PictureLegendEntry, TimelinePicture } from './timeline-picture';
import { itemAt } from './row-items';

/** What a view tells its plot about the selection, and how the selection moves. */
export interface PlotSelecting {
  /** the selected row as drawn (undefined while it is fetched) and its item; null: none */
  selected: { row: RowView | undefined; index: number | null } | null;
  /** a click: on an item (its hit box), else on the row at layout index `at` (-1: none) */
  pick(hit: HitBox | null, at: number): void;
  /** another item of the selected row (left/right) */
  selectItem(index: number): void;
  clear(): void;
  /** up/down: the row `step` rows away */
  move(step: number): void;
  /** Enter: whether it opened or closed something */
  toggle(): boolean;
}

export interface TimelinePlotInput {
  box: PlotBox;
  viewport: Viewport;
  layout: RowLayout;
  /** the rows drawn, `y` from the canvas top; memoized (a new array redraws) */
  rows: DrawRow[];
  /**
   * drawTimeline's options but the theme, the hover, the window (the viewport's) and the height
   * (the box's); `width` is the canvas's
   */
  drawing: Omit<CanvasDrawing, 'hovered' | 'window' | 'height'>;
  clock: TimelineClock;
  keyboard: boolean;
  /** the row drawn under a hit box's `rowId` */
  rowOf(drawnId: number): RowView | undefined;
  selecting: PlotSelecting;
  /** a cursor shared with other timelines (seconds on this one's clock) and how to move it */
  cursor?: { sec: number | null; set(sec: number | null): void };
}

export interface TimelinePlot {
  /** what it was given, for the body that shows it */
  box: PlotBox;
  viewport: Viewport;
  layout: RowLayout;
  clock: TimelineClock;
  /** the canvas's width, CSS pixels */
  width: number;
  canvas: RefObject<HTMLCanvasElement | null>;
  /** the canvas's pointer handlers: hover, drag to pan, click to select */
  pointer: {
    onMouseDown(event: MouseEvent): void;
    onMouseMove(event: MouseEvent): void;
    onMouseUp(event: MouseEvent): void;
    onMouseLeave(): void;
  };
  hover: { x: number; y: number; hit: HitBox | null } | null;
  hoverRow: RowView | undefined;
  hoverItem: RowView['items'][number] | undefined;
  /** a PD span's phase under the pointer */
  hoverPhase: ReturnType<typeof phaseAt>;
  /** what each drawn row drew, by its drawn id */
  stats: Map<number, RowDrawStats>;
  /** the cursor: under the pointer, else the shared one; its x on the canvas */
  cursorSec: number | null;
  cursorX: number | null;
  /** a time on this timeline's clock with the decimals the zoom needs, and to the microsecond */
  clockText(sec: number): string;
  exactClockText(sec: number): string;
  /** scrolls the row at layout index `at` into view when it is not */
  reveal(at: number): void;
  /** the picture of what is drawn now: the canvas's rows and options, the axis' ticks */
  picture(parts: {
    labelWidth: number;
    legend: PictureLegendEntry[];
    labels?: PictureLabel[];
  }): TimelinePicture;
}

/** How far the pointer moves before a press is a drag (a pan), not a click. */
const DRAG_PX = 3;

/**
 * One timeline's plot, whatever its rows (a file's, a run's lane groups): the canvas drawn by
 * drawTimeline, the pointer (hover, drag to pan, click to select), Ctrl+wheel zoom, the keys
 * (W/S/A/D, 0, F, arrows, Escape, Enter), the cursor and the clock, and its picture. The view
 * says what its rows are and what a selection means.
 */
export function useTimelinePlot(input: TimelinePlotInput): TimelinePlot {
  const { box, viewport, layout, rows, clock, selecting } = input;
  const drawing = { ...input.drawing, window: viewport.window, height: box.viewHeight };
  const { window, setWindow } = viewport;
  const width = drawing.width;
  const canvas = useRef<HTMLCanvasElement>(null);
  const hits = useRef<HitBox[]>([]);
  const drag = useRef<{ x: number; window: Window } | null>(null);
  /** where the pointer is over the canvas (0..1 of its width): W/S zoom there */
  const pointerFrac = useRef<number | null>(null);
  const [hover, setHover] = useState<TimelinePlot['hover']>(null);
  const hovered = useHovered(hover?.hit ?? null);
  const [stats, setStats] = useState<Map<number, RowDrawStats>>(new Map());
  useCanvasDrawing(canvas, rows, { ...drawing, hovered }, (drawnHits, drawnStats) => {
    hits.current = drawnHits;
    setStats(drawnStats);
  });
  useWheelZoom(box.scroller, canvas, viewport);

  const span = window.endSec - window.startSec;
  const secAt = (x: number) => window.startSec + (x / width) * span;
  const reveal = (at: number) => {
    const el = box.scroller.current;
    const top = layout.tops[at];
    if (el && (top < el.scrollTop || top + layout.heights[at] > el.scrollTop + box.viewHeight))
      el.scrollTop = Math.max(0, top - box.viewHeight / 3);
  };

  useTimelineKeys(input.keyboard, {
    zoom: (factor) => setWindow(zoomWindow(window, factor, pointerFrac.current ?? 0.5)),
    pan: (frac) => setWindow(panWindow(window, frac)),
    fitAll: () => setWindow(viewport.fitAll),
    fitSelection: () => {
      const { selected } = selecting;
      const row = selected?.row;
      if (!selected || !row) return setWindow(viewport.fitAll);
      const item = selected.index === null ? null : itemAt(row, selected.index);
      setWindow(
        item ? fitWindow(item.startSec, item.endSec, 0.1) : fitWindow(row.startSec, row.endSec),
      );
    },
    clearSelection: selecting.clear,
    moveSelection: selecting.move,
    moveItem: (step) => {
      const { selected } = selecting;
      if (!selected?.row) return;
      const index = steppedItem(selected.row.items, selected.index, step, drawing.hiddenNames);
      if (index !== null) selecting.selectItem(index);
    },
    toggleSelectedRow: selecting.toggle,
  });

  const at = (event: MouseEvent) => {
    const rect = canvas.current!.getBoundingClientRect();
    return { x: event.clientX - rect.left, y: event.clientY - rect.top };
  };
  const pointer: TimelinePlot['pointer'] = {
    onMouseDown: (event) => {
      if (event.button === 0) drag.current = { x: event.clientX, window };
    },
    onMouseMove: (event) => {
      const { x, y } = at(event);
      pointerFrac.current = Math.min(1, Math.max(0, x / width));
      if (drag.current && Math.abs(event.clientX - drag.current.x) > DRAG_PX) {
        setWindow(panWindow(drag.current.window, -(event.clientX - drag.current.x) / width));
        setHover(null);
        return;
      }
      setHover({ x, y, hit: hitAt(hits.current, x, y) });
      input.cursor?.set(secAt(x));
    },
    onMouseUp: (event) => {
      const dragged = drag.current && Math.abs(event.clientX - drag.current.x) > DRAG_PX;
      drag.current = null;
      if (dragged) return;
      const { x, y } = at(event);
      const hit = hitAt(hits.current, x, y);
      selecting.pick(hit, hit ? -1 : rowAt(layout, y + box.scrollTop));
    },
    onMouseLeave: () => {
      drag.current = null;
      pointerFrac.current = null;
      setHover(null);
      input.cursor?.set(null);
    },
  };

  const decimals = decimalsForPixel(span / width);
  const hoverRow = hover?.hit ? input.rowOf(hover.hit.rowId) : undefined;
  const hoverItem = hover?.hit && hoverRow ? itemAt(hoverRow, hover.hit.index) : undefined;
  // a PD span's segment under the pointer: the tooltip names that phase (half a pixel of slack,
  // as a segment is drawn at least that wide)
  const hoverPhase =
    hover && hoverItem?.pd ? phaseAt(hoverItem, secAt(hover.x), span / width / 2) : null;
  // the cursor of a timeline follows the pointer over another sharing its cursor
  const cursorSec = hover ? secAt(hover.x) : (input.cursor?.sec ?? null);
  const cursorX =
    hover !== null
      ? hover.x
      : cursorSec === null
        ? null
        : ((cursorSec - window.startSec) / span) * width;

  return {
    box,
    viewport,
    layout,
    clock,
    width,
    canvas,
    pointer,
    hover,
    hoverRow,
    hoverItem,
    hoverPhase,
    stats,
    cursorSec,
    cursorX,
    clockText: (sec) => clockText(clock, sec, decimals),
    exactClockText: (sec) => exactClockText(clock, sec),
    reveal,
    picture: ({ labelWidth, legend, labels }) => ({
      draw: { ...drawing, theme: readTheme() },
      rows,
      labelWidth,
      ticks: axisTicks(window, width, clock),
      legend,
      labels,
    }),
  };
}
