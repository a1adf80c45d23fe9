import { useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState } from 'react';
import type { ShownOrder } from '../host/shown-order';
import type { FileSummary } from '../../src-main/core/api/trace-api';
import { useViewStore } from '../state/view-store';
import { useRowPage } from '../host/data-hooks';
import type { HitBox, RowDrawStats } from './draw-timeline';
import { AXIS_HEIGHT, rowAt, visibleRange } from './row-layout';
import { fitWindow, panWindow, zoomWindow } from './time-window';
import { decimalsForPixel } from './time-format';
import { clockText, exactClockText, timelineClock } from './timeline-clock';
import { useViewport, useWheelZoom } from './use-viewport';
import { useRowExpansion } from './use-row-expansion';
import { useTimelineKeys } from './use-timeline-keys';
import { hitAt } from './hit-test';
import { phaseAt } from './pd-segments';
import { steppedItem } from './item-steps';
import { CursorReadout } from './CursorReadout';
import { TimelineControls } from './TimelineControls';
import { TimeAxis } from './TimeAxis';
import { TimelineTooltip } from './TimelineTooltip';
import { useHovered } from './use-hovered';
import { RowLabel } from './RowLabel';
import { fittedLabelWidth, labelColumnChars } from './row-label-text';
import { Legend } from './Legend';
import { fileLegendNames } from './legend-entries';
import { idleGapsByRow } from './idle-gaps';
import { useCanvasDrawing, readTheme } from './TimelineCanvas';
import { drawRowsOf } from './draw-rows';
import { axisTicks } from './timeline-clock';
import { pictureLegend, type TimelinePicture } from './timeline-picture';
import { timelinePicturePng } from './timeline-picture-png';
import { PictureMenu } from '../picture/PictureMenu';
import './timeline.css';

const FETCH_MARGIN = 30;
const EMPTY_ROW_IDS = new Int32Array(0);

/**
 * The virtualized timeline of one file: legend, time axis, label column and the canvas of bars
 * and markers. The parts live beside it: viewport (use-viewport), row paging (useRowPage),
 * lane expansion, drawing (TimelineCanvas, draw-timeline), hit-test, axis, tooltip.
 */
export function Timeline({
  file,
  order,
  windowKey = file.fileId,
  fitSec,
  keyboard = true,
  originSec = 0,
  legend,
}: {
  file: FileSummary;
  order: ShownOrder | null;
  /** timelines sharing a key share their time window and cursor (compare mode) */
  windowKey?: string;
  /** the span "fit all" shows; defaults to this file's duration */
  fitSec?: number;
  /** whether this timeline answers the keyboard (one of two compared timelines does) */
  keyboard?: boolean;
  /**
   * (ours) where this timeline's shared window and cursor start, in its file's seconds, and
   * where its clock reads 0: compared rollouts align on their own windows (a resumed rollout's
   * own work starts an hour in), and their axes, cursor and tooltips read alike
   */
  originSec?: number;
  /**
   * (compare) the legend shared by timelines shown together: the names it lists (null: this
   * timeline lists none, its twin's serves both; its controls stay) and the hidden names, held
   * by the caller
   */
  legend?: {
    spanNames: FileSummary['spanNames'] | null;
    hidden: Set<string>;
    onToggleHidden(name: string): void;
  };
}) {
  const scroller = useRef<HTMLDivElement>(null);
  const canvas = useRef<HTMLCanvasElement>(null);
  const [size, setSize] = useState({ width: 800, height: 500 });
  // a view mounted again (another tab and back, a preview that moved the file's start) opens
  // where the user had scrolled
  const setStoredScrollTop = useViewStore((s) => s.setScrollTop);
  const [scrollTop, setScrollTop] = useState(
    () => useViewStore.getState().scrollTops[windowKey] ?? 0,
  );
  useLayoutEffect(() => {
    const element = scroller.current;
    if (element) element.scrollTop = scrollTop;
    // and on unmount, where the element is now: a scroll event comes a frame after the scroll,
    // so a view replaced within that frame (the file's last rows in) would forget it
    return () => {
      if (element) setStoredScrollTop(windowKey, element.scrollTop);
    };
    // once, on mount: later scrolls come from the element itself
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);
  const [ownHiddenNames, setHiddenNames] = useState<Set<string>>(new Set());
  const hiddenNames = legend?.hidden ?? ownHiddenNames;
  const [hover, setHover] = useState<{ x: number; y: number; hit: HitBox | null } | null>(null);
  const hovered = useHovered(hover?.hit ?? null);
  const fileNames = useMemo(() => fileLegendNames(file), [file]);
  // one choice per window key: compared timelines read the same clock, and it stays when the
  // timeline is shown again (a state of its own was per side, and lost on a view's switch)
  const wallClock = useViewStore((s) => s.wallClocks[windowKey] ?? false);
  const storeWallClock = useViewStore((s) => s.setWallClock);
  const setWallClock = useCallback(
    (on: boolean) => storeWallClock(windowKey, on),
    [storeWallClock, windowKey],
  );
  const [stats, setStats] = useState<Map<number, RowDrawStats>>(new Map());
  const hits = useRef<HitBox[]>([]);
  const drag = useRef<{ x: number; window: typeof viewport.window } | null>(null);
  /** where the pointer is over the canvas (0..1 of its width): W/S zoom there */
  const pointerFrac = useRef<number | null>(null);
  const selection = useViewStore((s) => s.selection);
  const select = useViewStore((s) => s.select);
  const filterMode = useViewStore((s) => s.filterMode);
  const storedCursor = useViewStore((s) => s.cursors[windowKey] ?? null);
  const sharedCursor = storedCursor === null ? null : storedCursor + originSec;
  const setCursor = useViewStore((s) => s.setCursor);
  const matching = useViewStore((s) => s.matchingRowIds);
  const laneHeight = useViewStore((s) => s.laneHeight);
  const draggedLabelWidth = useViewStore((s) => s.labelWidth);
  const setLabelWidth = useViewStore((s) => s.setLabelWidth);
  const highlightNames = useViewStore((s) => s.highlightNames);
  const setHighlightNames = useViewStore((s) => s.setHighlightNames);

  const viewport = useViewport(file, windowKey, fitSec, originSec);
  const idleGaps = useMemo(() => idleGapsByRow(file), [file]);
  const { window, setWindow } = viewport;
  const rowIds = order?.rowIds ?? EMPTY_ROW_IDS;
  const viewHeight = size.height - AXIS_HEIGHT;
  const expansion = useRowExpansion(
    rowIds,
    order?.laneCounts ?? EMPTY_ROW_IDS,
    laneHeight,
    viewHeight,
  );
  const { layout, expandedAt } = expansion;
  const [first, last] = visibleRange(layout, scrollTop, viewHeight);
  const rowsById = useRowPage(file.fileId, rowIds, first, last, FETCH_MARGIN);

  // the label column fits the largest index and group seen (at least the row count's digits)
  const chars = useMemo(
    () => labelColumnChars(rowsById.values(), file.rows),
    [rowsById, file.rows],
  );
  // a named row (capabilities.namedRows) shows its name too: room for `decode Req 5e0f1a2b`
  const named = file.capabilities.namedRows === true;
  const labelWidth = draggedLabelWidth ?? fittedLabelWidth(chars, named);
  const canvasWidth = Math.max(100, size.width - labelWidth);

  // Keep the canvas sized to its box.
  useEffect(() => {
    const el = scroller.current?.parentElement;
    if (!el) return;
    const observer = new ResizeObserver(([entry]) => {
      setSize({ width: entry.contentRect.width, height: entry.contentRect.height });
    });
    observer.observe(el);
    return () => observer.disconnect();
  }, []);

  const dimmedRow = useCallback(
    (rowId: number) => filterMode === 'highlight' && matching !== null && !matching.has(rowId),
    [filterMode, matching],
  );
  const selected = selection && selection.fileId === file.fileId ? selection : null;
  useCanvasDrawing(
    canvas,
    {
      order,
      rowsById,
      layout,
      first,
      last,
      scrollTop,
      expandedAt,
      dimmedRow,
      window,
      width: canvasWidth,
      height: viewHeight,
      laneHeight,
      hiddenNames,
      highlightNames,
      selected,
      idleGaps,
      hovered,
    },
    (drawnHits, drawnStats) => {
      hits.current = drawnHits;
      setStats(drawnStats);
    },
  );
  useWheelZoom(scroller, canvas, viewport);

  const moveSelection = (step: number) => {
    if (rowIds.length === 0) return;
    const at = selection ? rowIds.indexOf(selection.rowId) : -1;
    const next = Math.max(0, Math.min(rowIds.length - 1, at < 0 ? 0 : at + step));
    select({ fileId: file.fileId, rowId: rowIds[next], index: null });
    const top = layout.tops[next];
    const el = scroller.current;
    if (el && (top < el.scrollTop || top + layout.heights[next] > el.scrollTop + viewHeight)) {
      el.scrollTop = Math.max(0, top - viewHeight / 3);
    }
  };
  useTimelineKeys(keyboard, {
    zoom: (factor) => setWindow(zoomWindow(window, factor, pointerFrac.current ?? 0.5)),
    pan: (frac) => setWindow(panWindow(window, frac)),
    fitAll: () => setWindow(viewport.fitAll),
    fitSelection: () => {
      const row = selected ? rowsById.get(selected.rowId) : undefined;
      if (!selected || !row) {
        setWindow(viewport.fitAll);
        return;
      }
      const item = selected.index === null ? null : row.items[selected.index];
      setWindow(
        item ? fitWindow(item.startSec, item.endSec, 0.1) : fitWindow(row.startSec, row.endSec),
      );
    },
    clearSelection: () => select(null),
    moveSelection,
    moveItem: (step) => {
      const row = selected ? rowsById.get(selected.rowId) : undefined;
      if (!row) return;
      const index = steppedItem(row.items, selected!.index, step, hiddenNames);
      if (index !== null) select({ fileId: file.fileId, rowId: row.rowId, index });
    },
    toggleSelectedRow: () => {
      if (!selection) return false;
      expansion.toggleRow(selection.rowId);
      return true;
    },
  });

  // a row selected elsewhere (a Query result's row) is scrolled into view once the timeline
  // shows it: the first time its rows include the selected one after mounting
  const revealed = useRef(false);
  useEffect(() => {
    if (revealed.current || !selected) return;
    const at = rowIds.indexOf(selected.rowId);
    const el = scroller.current;
    if (at < 0 || !el) return;
    revealed.current = true;
    const top = layout.tops[at];
    if (top < el.scrollTop || top + layout.heights[at] > el.scrollTop + viewHeight)
      el.scrollTop = Math.max(0, top - viewHeight / 3);
  }, [selected, rowIds, layout, viewHeight]);

  const secAt = (x: number) =>
    window.startSec + (x / canvasWidth) * (window.endSec - window.startSec);
  const pointer = (event: React.MouseEvent) => {
    const rect = canvas.current!.getBoundingClientRect();
    return { x: event.clientX - rect.left, y: event.clientY - rect.top };
  };
  const onMouseDown = (event: React.MouseEvent) => {
    if (event.button !== 0) return;
    drag.current = { x: event.clientX, window };
  };
  const onMouseMove = (event: React.MouseEvent) => {
    const { x, y } = pointer(event);
    pointerFrac.current = Math.min(1, Math.max(0, x / canvasWidth));
    if (drag.current && Math.abs(event.clientX - drag.current.x) > 3) {
      setWindow(panWindow(drag.current.window, -(event.clientX - drag.current.x) / canvasWidth));
      setHover(null);
      return;
    }
    setHover({ x, y, hit: hitAt(hits.current, x, y) });
    setCursor(windowKey, secAt(x) - originSec);
  };
  const onMouseUp = (event: React.MouseEvent) => {
    const dragged = drag.current && Math.abs(event.clientX - drag.current.x) > 3;
    drag.current = null;
    if (dragged) return;
    const { x, y } = pointer(event);
    const hit = hitAt(hits.current, x, y);
    if (hit) select({ fileId: file.fileId, rowId: hit.rowId, index: hit.index });
    else {
      const i = rowAt(layout, y + scrollTop);
      if (i >= 0) select({ fileId: file.fileId, rowId: rowIds[i], index: null });
    }
  };

  // one clock everywhere (axis, cursor readout, tooltip): from this timeline's origin (the
  // file's start; a compared rollout's own window start) or the wall clock (UTC), with the
  // decimals the zoom needs; exact to the microsecond in titles
  const timeClock = useMemo(
    () => timelineClock(originSec, wallClock ? (file.globalStartSec ?? 0) : null),
    [originSec, wallClock, file.globalStartSec],
  );
  const decimals = decimalsForPixel((window.endSec - window.startSec) / canvasWidth);
  const clock = (sec: number) => clockText(timeClock, sec, decimals);
  const exactClock = (sec: number) => exactClockText(timeClock, sec);

  // the cursor of a compared timeline follows the pointer over its twin
  const cursorSec = hover ? secAt(hover.x) : sharedCursor;
  const hoverRow = hover?.hit ? rowsById.get(hover.hit.rowId) : undefined;
  const hoverItem = hover?.hit && hoverRow ? hoverRow.items[hover.hit.index] : undefined;
  // a PD span's segment under the pointer: the tooltip names that phase (half a pixel of slack,
  // as a segment is drawn at least that wide)
  const pxSec = (window.endSec - window.startSec) / canvasWidth;
  const hoverPhase = hover && hoverItem?.pd ? phaseAt(hoverItem, secAt(hover.x), pxSec / 2) : null;

  // the picture: what is shown now, drawn again at 2x by the same code (timeline-picture.ts);
  // where its rows went is left on the element for whoever compares it with the canvas
  const root = useRef<HTMLDivElement>(null);
  const picturePng = async () => {
    const picture: TimelinePicture = {
      draw: {
        width: canvasWidth,
        height: viewHeight,
        window,
        theme: readTheme(),
        hiddenNames,
        highlightNames,
        selected,
        laneHeight,
        idleGaps,
      },
      rows: drawRowsOf({ rowIds, rowsById, layout, first, last, scrollTop, expandedAt, dimmedRow }),
      labelWidth,
      ticks: axisTicks(window, canvasWidth, timeClock),
      legend:
        legend?.spanNames === null
          ? []
          : pictureLegend(legend ? { spanNames: legend.spanNames } : file, hiddenNames),
    };
    const { blob, layout: drawn } = await timelinePicturePng(picture);
    if (root.current) root.current.dataset.picturePlot = JSON.stringify(drawn.plot);
    return blob;
  };

  const startResize = (event: React.MouseEvent) => {
    event.preventDefault();
    const x0 = event.clientX;
    const w0 = labelWidth;
    const move = (e: MouseEvent) =>
      setLabelWidth(Math.max(120, Math.min(size.width - 200, w0 + e.clientX - x0)));
    const up = () => {
      globalThis.removeEventListener('mousemove', move);
      globalThis.removeEventListener('mouseup', up);
    };
    globalThis.addEventListener('mousemove', move);
    globalThis.addEventListener('mouseup', up);
  };

  return (
    <div
      className="timeline"
      data-testid="timeline"
      ref={root}
      data-highlight={highlightNames?.join('|') ?? ''}
    >
      <Legend
        file={legend ? { spanNames: legend.spanNames ?? [] } : { spanNames: fileNames }}
        controlsOnly={legend?.spanNames === null}
        hidden={hiddenNames}
        highlight={highlightNames}
        onHighlight={(name) => setHighlightNames(name === null ? null : [name])}
        onToggleHidden={
          legend?.onToggleHidden ??
          ((name) =>
            setHiddenNames((prev) => {
              const next = new Set(prev);
              if (next.has(name)) next.delete(name);
              else next.add(name);
              return next;
            }))
        }
        extra={
          <>
            <TimelineControls
              allExpanded={expansion.allExpanded}
              onSetAllExpanded={expansion.setAll}
              wallClock={wallClock}
              onWallClock={setWallClock}
            />
            <PictureMenu
              name={`${file.name}-timeline`}
              png={picturePng}
              command={keyboard && !legend}
              testId="timeline-picture"
            />
          </>
        }
      />
      <div className="timeline-body">
        <TimeAxis
          window={window}
          width={canvasWidth}
          left={labelWidth}
          clock={timeClock}
          onZoomTo={setWindow}
        />
        <div
          className="timeline-scroll"
          ref={scroller}
          style={{ height: viewHeight }}
          onScroll={(event) => {
            setScrollTop(event.currentTarget.scrollTop);
            setStoredScrollTop(windowKey, event.currentTarget.scrollTop);
          }}
        >
          <div className="timeline-content" style={{ height: Math.max(layout.total, viewHeight) }}>
            <div
              className="timeline-labels"
              data-testid="label-column"
              style={
                {
                  width: labelWidth,
                  '--index-ch': chars.index,
                  '--group-ch': chars.group,
                } as React.CSSProperties
              }
            >
              {Array.from(rowIds.subarray(first, last + 1), (rowId, k) => {
                const i = first + k;
                return (
                  <RowLabel
                    key={rowId}
                    rowId={rowId}
                    row={rowsById.get(rowId)}
                    named={named}
                    top={layout.tops[i]}
                    height={layout.heights[i]}
                    lanes={order!.laneCounts[i]}
                    laneHeight={laneHeight}
                    expanded={expandedAt(i)}
                    selected={selected?.rowId === rowId}
                    stats={stats.get(rowId)}
                    dimmed={dimmedRow(rowId)}
                    onToggle={() => expansion.toggleRow(rowId)}
                    onSelect={() => select({ fileId: file.fileId, rowId, index: null })}
                  />
                );
              })}
            </div>
            <div
              className="label-resizer"
              data-testid="label-resizer"
              style={{ left: labelWidth - 3, top: scrollTop, height: viewHeight }}
              onMouseDown={startResize}
              onDoubleClick={() => setLabelWidth(null)}
              title="Drag to resize the label column; double-click to fit"
            />
            <canvas
              ref={canvas}
              className="timeline-canvas"
              data-testid="timeline-canvas"
              style={{ left: labelWidth, top: scrollTop, width: canvasWidth, height: viewHeight }}
              onMouseDown={onMouseDown}
              onMouseMove={onMouseMove}
              onMouseUp={onMouseUp}
              onMouseLeave={() => {
                drag.current = null;
                pointerFrac.current = null;
                setHover(null);
                setCursor(windowKey, null);
              }}
            />
            {(hover || sharedCursor !== null) && (
              <div
                className="cursor-line"
                data-testid="cursor-line"
                style={{
                  left:
                    labelWidth +
                    (hover
                      ? hover.x
                      : ((sharedCursor! - window.startSec) / (window.endSec - window.startSec)) *
                        canvasWidth),
                  top: scrollTop,
                  height: viewHeight,
                }}
              />
            )}
          </div>
        </div>
        {rowIds.length === 0 && order && (
          <div className="timeline-empty" data-testid="timeline-empty">
            {file.rows === 0 ? 'This file has no rows to draw.' : 'No rows match the filter.'}
          </div>
        )}
      </div>
      <CursorReadout
        order={order}
        cursorSec={cursorSec}
        hoverRow={hoverRow}
        clock={clock}
        exactClock={exactClock}
      />
      {hover?.hit && hoverItem && (
        <TimelineTooltip
          item={hoverItem}
          phase={hoverPhase}
          rowItems={hoverRow?.items}
          left={Math.min(labelWidth + hover.x + 14, size.width - 300)}
          top={hover.y + AXIS_HEIGHT + 40}
          clock={clock}
        />
      )}
    </div>
  );
}
