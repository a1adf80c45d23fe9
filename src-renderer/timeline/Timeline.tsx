import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { scaleLinear } from '@visx/scale';
import { AxisTop } from '@visx/axis';
import type { FileSummary, RowOrder, RowView } from '../../src-main/core/api/trace-api';
import type { TraceHost } from '../host/trace-host';
import { useViewStore } from '../state/view-store';
import { onCommand, THEME_CHANGED_EVENT } from '../frame/commands';
import { drawTimeline, type HitBox, type RowDrawStats, type ThemeColours } from './draw-timeline';
import { layoutRows, rowAt, visibleRange, LANE_HEIGHT, ROW_PADDING } from './row-layout';
import { fitWindow, formatDuration, panWindow, zoomWindow, type Window } from './time-window';
import { idleGapsByRow } from './idle-gaps';
import { RowLabel } from './RowLabel';
import { Legend } from './Legend';
import './timeline.css';

const LABEL_WIDTH = 230;
const AXIS_HEIGHT = 28;
const FETCH_MARGIN = 30;

/** The virtualized timeline of one file: labels, time axis, canvas of bars and markers. */
export function Timeline({
  host,
  file,
  order,
  windowKey = file.fileId,
  fitSec,
  keyboard = true,
  originSec = 0,
}: {
  host: TraceHost;
  file: FileSummary;
  order: RowOrder | null;
  /** timelines sharing a key share their time window and cursor (compare mode) */
  windowKey?: string;
  /** the span "fit all" shows; defaults to this file's duration */
  fitSec?: number;
  /** whether this timeline answers the keyboard (one of two compared timelines does) */
  keyboard?: boolean;
  /**
   * (ours) where this timeline's shared window and cursor start, in its file's seconds: compared
   * rollouts align on their own windows (a resumed rollout's own work starts an hour in)
   */
  originSec?: number;
}) {
  const scroller = useRef<HTMLDivElement>(null);
  const canvas = useRef<HTMLCanvasElement>(null);
  const [size, setSize] = useState({ width: 800, height: 500 });
  const [scrollTop, setScrollTop] = useState(0);
  const [rowsById, setRowsById] = useState<Map<number, RowView>>(new Map());
  const [collapsed, setCollapsed] = useState<Set<number>>(new Set());
  const [allCollapsed, setAllCollapsed] = useState(false);
  const [hiddenNames, setHiddenNames] = useState<Set<string>>(new Set());
  const [highlightName, setHighlightName] = useState<string | null>(null);
  const [hover, setHover] = useState<{ x: number; y: number; hit: HitBox | null } | null>(null);
  const [wallClock, setWallClock] = useState(false);
  const [stats, setStats] = useState<Map<number, RowDrawStats>>(new Map());
  const [brush, setBrush] = useState<{ from: number; to: number } | null>(null);
  // the canvas reads theme colours when it draws: a theme switch must redraw it (`window`
  // below is the time window, hence globalThis)
  const [themeVersion, setThemeVersion] = useState(0);
  useEffect(() => {
    const bump = () => setThemeVersion((v) => v + 1);
    globalThis.addEventListener(THEME_CHANGED_EVENT, bump);
    return () => globalThis.removeEventListener(THEME_CHANGED_EVENT, bump);
  }, []);
  const hits = useRef<HitBox[]>([]);
  const drag = useRef<{ x: number; window: Window } | null>(null);
  const selection = useViewStore((s) => s.selection);
  const select = useViewStore((s) => s.select);
  const filterMode = useViewStore((s) => s.filterMode);
  const storedWindow = useViewStore((s) => s.windows[windowKey]);
  const storedCursor = useViewStore((s) => s.cursors[windowKey] ?? null);
  const sharedCursor = storedCursor === null ? null : storedCursor + originSec;
  const setCursor = useViewStore((s) => s.setCursor);
  const setWindow = useViewStore((s) => s.setWindow);
  const matching = useViewStore((s) => s.matchingRowIds);

  const totalSec = fitSec ?? Math.max(1e-6, (file.globalEndSec ?? 0) - (file.globalStartSec ?? 0));
  // (ours) a rollout that resumed samples of an earlier one opens on its own window; the
  // toolbar's window chip shows the whole file, earlier attempts included
  const own = fitSec === undefined ? file.rolloutWindow : undefined;
  const fitAll = useMemo(
    () => (own ? fitWindow(own.ownStartSec, own.ownEndSec) : fitWindow(0, totalSec)),
    [own, totalSec],
  );
  const idleGaps = useMemo(() => idleGapsByRow(file), [file]);
  const window = useMemo(() => {
    const w = storedWindow ?? fitAll;
    return { startSec: w.startSec + originSec, endSec: w.endSec + originSec };
  }, [storedWindow, fitAll, originSec]);
  const updateWindow = useCallback(
    (w: Window) =>
      setWindow(windowKey, { startSec: w.startSec - originSec, endSec: w.endSec - originSec }),
    [windowKey, setWindow, originSec],
  );
  const canvasWidth = Math.max(100, size.width - LABEL_WIDTH);

  const rowIds = useMemo(() => order?.rowIds ?? new Int32Array(0), [order]);
  const expandedAt = useCallback(
    (i: number) => !allCollapsed && !collapsed.has(rowIds[i]),
    [allCollapsed, collapsed, rowIds],
  );
  const layout = useMemo(
    () => layoutRows(order?.laneCounts ?? [], expandedAt),
    [order, expandedAt],
  );
  const viewHeight = size.height - AXIS_HEIGHT;
  const [first, last] = visibleRange(layout, scrollTop, viewHeight);

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

  // Fetch the rows in view plus a margin; the latest request wins.
  const fetchSeq = useRef(0);
  useEffect(() => {
    if (!order) return;
    const from = Math.max(0, first - FETCH_MARGIN);
    const to = Math.min(rowIds.length - 1, last + FETCH_MARGIN);
    const missing: number[] = [];
    for (let i = from; i <= to; i++) if (!rowsById.has(rowIds[i])) missing.push(rowIds[i]);
    if (missing.length === 0) {
      document.body.dataset.idle = 'true';
      return;
    }
    const seq = ++fetchSeq.current;
    document.body.dataset.idle = 'false';
    void host.api.getRows(file.fileId, missing).then((rows) => {
      setRowsById((prev) => {
        const next = new Map(prev);
        for (const row of rows) next.set(row.rowId, row);
        return next;
      });
      if (seq === fetchSeq.current) document.body.dataset.idle = 'true';
    });
  }, [host, file.fileId, order, first, last, rowIds, rowsById]);

  // Draw whenever what is visible changes.
  useEffect(() => {
    const el = canvas.current;
    if (!el) return;
    const dpr = globalThis.devicePixelRatio || 1;
    el.width = Math.round(canvasWidth * dpr);
    el.height = Math.round(viewHeight * dpr);
    const ctx = el.getContext('2d');
    if (!ctx) return;
    ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
    const drawRows = [];
    for (let i = first; i <= last && i < rowIds.length; i++) {
      const row = rowsById.get(rowIds[i]);
      if (!row) continue;
      drawRows.push({
        row,
        y: layout.tops[i] - scrollTop,
        expanded: expandedAt(i),
        shaded: i % 2 === 1,
        dimmed: filterMode === 'highlight' && matching !== null && !matching.has(row.rowId),
      });
    }
    const result = drawTimeline(ctx, drawRows, {
      width: canvasWidth,
      height: viewHeight,
      window,
      theme: readTheme(),
      hiddenNames,
      highlightName,
      selected: selection && selection.fileId === file.fileId ? selection : null,
      idleGaps,
    });
    hits.current = result.hits;
    setStats(result.stats);
  }, [
    canvasWidth,
    viewHeight,
    first,
    last,
    rowIds,
    rowsById,
    layout,
    scrollTop,
    window,
    hiddenNames,
    highlightName,
    selection,
    file.fileId,
    expandedAt,
    filterMode,
    matching,
    themeVersion,
    idleGaps,
  ]);

  // Keyboard navigation: W/S zoom, A/D pan, 0 fit all, F fit selection, arrows between rows.
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (!keyboard) return;
      const target = event.target as HTMLElement | null;
      if (
        target &&
        (target.tagName === 'INPUT' || target.tagName === 'TEXTAREA' || target.tagName === 'SELECT')
      )
        return;
      if (event.ctrlKey || event.metaKey || event.altKey) return;
      const key = event.key.toLowerCase();
      if (key === 'w') updateWindow(zoomWindow(window, 0.8, 0.5));
      else if (key === 's') updateWindow(zoomWindow(window, 1.25, 0.5));
      else if (key === 'a') updateWindow(panWindow(window, -0.15));
      else if (key === 'd') updateWindow(panWindow(window, 0.15));
      else if (key === '0') updateWindow(fitAll);
      else if (key === 'f') fitSelection();
      else if (key === 'escape') select(null);
      else if (key === 'arrowdown' || key === 'arrowup')
        moveSelection(key === 'arrowdown' ? 1 : -1);
      else if (key === 'enter' && selection) toggleRow(selection.rowId);
      else return;
      event.preventDefault();
    };
    globalThis.addEventListener('keydown', onKey);
    return () => globalThis.removeEventListener('keydown', onKey);
  });

  useEffect(
    () =>
      onCommand((command) => {
        if (command === 'zoom-in') updateWindow(zoomWindow(window, 0.8, 0.5));
        if (command === 'zoom-out') updateWindow(zoomWindow(window, 1.25, 0.5));
        if (command === 'zoom-fit') updateWindow(fitAll);
      }),
    [window, fitAll, updateWindow],
  );

  function fitSelection() {
    if (!selection || selection.fileId !== file.fileId) return;
    const row = rowsById.get(selection.rowId);
    if (!row) return;
    const item = selection.index === null ? null : row.items[selection.index];
    updateWindow(
      item ? fitWindow(item.startSec, item.endSec, 0.1) : fitWindow(row.startSec, row.endSec),
    );
  }

  function moveSelection(step: number) {
    if (rowIds.length === 0) return;
    const at = selection ? rowIds.indexOf(selection.rowId) : -1;
    const next = Math.max(0, Math.min(rowIds.length - 1, at < 0 ? 0 : at + step));
    select({ fileId: file.fileId, rowId: rowIds[next], index: null });
    const top = layout.tops[next];
    const el = scroller.current;
    if (el && (top < el.scrollTop || top + layout.heights[next] > el.scrollTop + viewHeight)) {
      el.scrollTop = Math.max(0, top - viewHeight / 3);
    }
  }

  function toggleRow(rowId: number) {
    setCollapsed((prev) => {
      const next = new Set(prev);
      if (allCollapsed) {
        setAllCollapsed(false);
        for (const id of rowIds) if (id !== rowId) next.add(id);
        next.delete(rowId);
        return next;
      }
      if (next.has(rowId)) next.delete(rowId);
      else next.add(rowId);
      return next;
    });
  }

  const onWheel = (event: React.WheelEvent) => {
    const rect = canvas.current?.getBoundingClientRect();
    if (!rect) return;
    const frac = Math.min(1, Math.max(0, (event.clientX - rect.left) / rect.width));
    if (event.ctrlKey || event.metaKey) {
      event.preventDefault();
      updateWindow(zoomWindow(window, Math.exp(event.deltaY * 0.002), frac));
    } else if (event.shiftKey || Math.abs(event.deltaX) > Math.abs(event.deltaY)) {
      updateWindow(panWindow(window, (event.shiftKey ? event.deltaY : event.deltaX) / rect.width));
    }
  };

  // ctrl+wheel must not zoom the page: a non-passive listener is needed to prevent it
  useEffect(() => {
    const el = scroller.current;
    if (!el) return;
    const block = (event: WheelEvent) => {
      if (event.ctrlKey || event.metaKey || event.shiftKey) event.preventDefault();
    };
    el.addEventListener('wheel', block, { passive: false });
    return () => el.removeEventListener('wheel', block);
  }, []);

  const pointer = (event: React.MouseEvent) => {
    const rect = canvas.current!.getBoundingClientRect();
    return { x: event.clientX - rect.left, y: event.clientY - rect.top };
  };
  const hitAt = (x: number, y: number) =>
    hits.current
      .filter((h) => x >= h.x0 && x <= h.x1 && y >= h.y0 && y <= h.y1)
      .sort((a, b) => Number(b.point) - Number(a.point))[0] ?? null;

  const onMouseDown = (event: React.MouseEvent) => {
    if (event.button !== 0) return;
    drag.current = { x: event.clientX, window };
  };
  const onMouseMove = (event: React.MouseEvent) => {
    const { x, y } = pointer(event);
    if (drag.current && Math.abs(event.clientX - drag.current.x) > 3) {
      updateWindow(panWindow(drag.current.window, -(event.clientX - drag.current.x) / canvasWidth));
      setHover(null);
      return;
    }
    setHover({ x, y, hit: hitAt(x, y) });
    setCursor(
      windowKey,
      window.startSec + (x / canvasWidth) * (window.endSec - window.startSec) - originSec,
    );
  };
  const onMouseUp = (event: React.MouseEvent) => {
    const dragged = drag.current && Math.abs(event.clientX - drag.current.x) > 3;
    drag.current = null;
    if (dragged) return;
    const { x, y } = pointer(event);
    const hit = hitAt(x, y);
    if (hit) select({ fileId: file.fileId, rowId: hit.rowId, index: hit.index });
    else {
      const i = rowAt(layout, y + scrollTop);
      if (i >= 0) select({ fileId: file.fileId, rowId: rowIds[i], index: null });
    }
  };

  const axisScale = scaleLinear({
    domain: [window.startSec, window.endSec],
    range: [0, canvasWidth],
  });
  // the cursor of a compared timeline follows the pointer over its twin
  const cursorSec = hover
    ? window.startSec + (hover.x / canvasWidth) * (window.endSec - window.startSec)
    : sharedCursor;
  const cursor = cursorSec === null || !order ? null : cursorCounts(order, cursorSec);
  const hoverRow = hover?.hit ? rowsById.get(hover.hit.rowId) : undefined;
  const hoverItem = hover?.hit && hoverRow ? hoverRow.items[hover.hit.index] : undefined;
  const axisToSec = (clientX: number) => {
    const rect = canvas.current!.getBoundingClientRect();
    return (
      window.startSec + ((clientX - rect.left) / rect.width) * (window.endSec - window.startSec)
    );
  };

  return (
    <div className="timeline" data-testid="timeline">
      <Legend
        file={file}
        hidden={hiddenNames}
        highlight={highlightName}
        onHighlight={setHighlightName}
        onToggleHidden={(name) =>
          setHiddenNames((prev) => {
            const next = new Set(prev);
            if (next.has(name)) next.delete(name);
            else next.add(name);
            return next;
          })
        }
        extra={
          <>
            <button
              type="button"
              className="button small"
              onClick={() => {
                setAllCollapsed(!allCollapsed);
                setCollapsed(new Set());
              }}
              data-testid="toggle-all-lanes"
            >
              {allCollapsed ? 'Expand all rows' : 'Collapse all rows'}
            </button>
            <button
              type="button"
              className="button small"
              aria-pressed={wallClock}
              onClick={() => setWallClock(!wallClock)}
              data-testid="wall-clock"
            >
              {wallClock ? 'Wall clock' : 'From start'}
            </button>
          </>
        }
      />
      <div className="timeline-body">
        <div
          className="time-axis"
          data-testid="time-axis"
          data-start={window.startSec}
          data-end={window.endSec}
          style={{ marginLeft: LABEL_WIDTH, height: AXIS_HEIGHT }}
          onMouseDown={(event) =>
            setBrush({ from: axisToSec(event.clientX), to: axisToSec(event.clientX) })
          }
          onMouseMove={(event) => brush && setBrush({ ...brush, to: axisToSec(event.clientX) })}
          onMouseUp={() => {
            if (
              brush &&
              Math.abs(brush.to - brush.from) > (window.endSec - window.startSec) / 500
            ) {
              updateWindow({
                startSec: Math.min(brush.from, brush.to),
                endSec: Math.max(brush.from, brush.to),
              });
            }
            setBrush(null);
          }}
          onMouseLeave={() => setBrush(null)}
          title="Drag over the axis to zoom to a range"
        >
          <svg width={canvasWidth} height={AXIS_HEIGHT}>
            <AxisTop
              top={AXIS_HEIGHT - 1}
              scale={axisScale}
              numTicks={Math.max(2, Math.floor(canvasWidth / 110))}
              tickFormat={(v) =>
                wallClock
                  ? wallTime((file.globalStartSec ?? 0) + Number(v))
                  : formatDuration(Number(v))
              }
              stroke="var(--border)"
              tickStroke="var(--fg-muted)"
              tickLabelProps={{ fill: 'var(--fg-muted)', fontSize: 10, textAnchor: 'middle' }}
            />
            {brush && (
              <rect
                className="axis-brush"
                x={Math.min(axisScale(brush.from), axisScale(brush.to))}
                width={Math.abs(axisScale(brush.to) - axisScale(brush.from))}
                y={0}
                height={AXIS_HEIGHT}
              />
            )}
          </svg>
        </div>
        <div
          className="timeline-scroll"
          ref={scroller}
          style={{ height: viewHeight }}
          onScroll={(event) => setScrollTop(event.currentTarget.scrollTop)}
          onWheel={onWheel}
        >
          <div className="timeline-content" style={{ height: Math.max(layout.total, viewHeight) }}>
            <div className="timeline-labels" style={{ width: LABEL_WIDTH }}>
              {Array.from(rowIds.subarray(first, last + 1), (rowId, k) => {
                const i = first + k;
                const row = rowsById.get(rowId);
                return (
                  <RowLabel
                    key={rowId}
                    rowId={rowId}
                    row={row}
                    top={layout.tops[i]}
                    height={layout.heights[i]}
                    lanes={order!.laneCounts[i]}
                    expanded={expandedAt(i)}
                    selected={selection?.fileId === file.fileId && selection.rowId === rowId}
                    stats={stats.get(rowId)}
                    dimmed={filterMode === 'highlight' && matching !== null && !matching.has(rowId)}
                    onToggle={() => toggleRow(rowId)}
                    onSelect={() => select({ fileId: file.fileId, rowId, index: null })}
                  />
                );
              })}
            </div>
            <canvas
              ref={canvas}
              className="timeline-canvas"
              data-testid="timeline-canvas"
              style={{ left: LABEL_WIDTH, top: scrollTop, width: canvasWidth, height: viewHeight }}
              onMouseDown={onMouseDown}
              onMouseMove={onMouseMove}
              onMouseUp={onMouseUp}
              onMouseLeave={() => {
                drag.current = null;
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
                    LABEL_WIDTH +
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
      <div className="cursor-readout" data-testid="cursor-readout">
        {cursor && cursorSec !== null ? (
          <>
            at{' '}
            {wallClock
              ? wallTime((file.globalStartSec ?? 0) + cursorSec)
              : formatDuration(cursorSec)}
            : <b>{cursor.notStarted}</b> not started · <b>{cursor.running}</b> running ·{' '}
            <b>{cursor.finished}</b> finished
            {hoverRow && (
              <span className="muted">
                {' '}
                · alive in #{String(hoverRow.sampleIndex)}:{' '}
                {hoverRow.items
                  .filter(
                    (i) => i.kind === 'span' && i.startSec <= cursorSec && i.endSec >= cursorSec,
                  )
                  .map((i) => i.name)
                  .slice(0, 6)
                  .join(', ') || '—'}
              </span>
            )}
          </>
        ) : (
          <span className="muted">
            Ctrl+wheel zooms · drag or Shift+wheel pans · W/S zoom · A/D pan · 0 fits all · F fits
            the selection
          </span>
        )}
      </div>
      {hover?.hit && hoverItem && (
        <div
          className="tooltip"
          data-testid="tooltip"
          style={{
            left: Math.min(LABEL_WIDTH + hover.x + 14, size.width - 300),
            top: hover.y + AXIS_HEIGHT + 40,
          }}
        >
          <div className="tooltip-name">{hoverItem.name}</div>
          {hoverItem.kind === 'span' ? (
            <div>
              {formatDuration(hoverItem.startSec)} → {formatDuration(hoverItem.endSec)} (
              {formatDuration(hoverItem.endSec - hoverItem.startSec)})
            </div>
          ) : (
            <div>
              {hoverItem.kind === 'orphan' ? 'unmatched end at ' : 'at '}
              {formatDuration(hoverItem.startSec)}
            </div>
          )}
          {hoverItem.ongoing && (
            <div className="tooltip-warn">
              ongoing: never ended; drawn until {hoverItem.clippedBy?.replace(/_/g, ' ')}
            </div>
          )}
          {hoverItem.pd && (
            <div>
              {hoverItem.pd.role} phases:{' '}
              {hoverItem.pd.phases
                .map((p) => `${p.phase} ${formatDuration(p.durationSec)}`)
                .join(', ')}
            </div>
          )}
          {hoverItem.hint && <div className="muted">{hoverItem.hint}</div>}
          {hoverItem.laneLabel && <div className="muted">{hoverItem.laneLabel}</div>}
        </div>
      )}
    </div>
  );
}

/** Samples not started, running and finished at time t (seconds from the file start). */
export function cursorCounts(
  order: RowOrder,
  t: number,
): { notStarted: number; running: number; finished: number } {
  let notStarted = 0;
  let running = 0;
  let finished = 0;
  for (let i = 0; i < order.rowIds.length; i++) {
    if (order.startSec[i] > t) notStarted++;
    else if (order.endSec[i] < t) finished++;
    else running++;
  }
  return { notStarted, running, finished };
}

function wallTime(epochSec: number): string {
  const d = new Date(epochSec * 1000);
  return `${d.toISOString().slice(11, 23)}`;
}

function readTheme(): ThemeColours {
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

export { LANE_HEIGHT, ROW_PADDING };
