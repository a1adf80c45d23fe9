import { useCallback, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { useViewStore } from '../state/view-store';
import type { HitBox, RowDrawStats } from './draw-timeline';
import { layoutLaneGroups, laneSpanNames, type LaneGroup } from './lane-group';
import { AXIS_HEIGHT, rowAt, visibleRange } from './row-layout';
import { fitWindow, panWindow, zoomWindow, type Window } from './time-window';
import { decimalsForPixel } from './time-format';
import { clockText, type TimelineClock } from './timeline-clock';
import { useWheelZoom } from './use-viewport';
import { useTimelineKeys } from './use-timeline-keys';
import { useLaneCanvas } from './use-lane-canvas';
import { hitAt } from './hit-test';
import { phaseAt } from './pd-segments';
import { steppedItem } from './item-steps';
import { TimeAxis } from './TimeAxis';
import { TimelineTooltip } from './TimelineTooltip';
import { useHovered } from './use-hovered';
import { LaneLabel } from './LaneLabel';
import { Legend } from './Legend';
import './timeline.css';

/** What is selected in a lane timeline: a row (by key) and one of its items, or the row. */
export interface LaneSelection {
  key: string;
  index: number | null;
}

/**
 * The timeline of lane groups (a run's trainer ranks, its samples, a sample's SGLang request
 * threads, ...), drawn by the file timeline's drawTimeline on one clock, with the same keys,
 * wheel, drag, axis brush, hover and legend. The view owns the data: it hands groups of rows,
 * fetches the rows this asks for, and turns a selection into details.
 */
export function LaneTimeline(props: {
  groups: LaneGroup[];
  /** what fit-all shows, seconds on this timeline's clock */
  fit: Window;
  /** timelines sharing a key share their time window */
  windowKey: string;
  clock: TimelineClock;
  /** drawn above the axis, on the same window (a run's rollouts and weight versions) */
  decor?: (window: Window, width: number) => ReactNode;
  labelWidth?: number;
  selected: LaneSelection | null;
  onSelect(selection: LaneSelection | null): void;
  /** rows in view without their items yet */
  onNeedRows(keys: string[]): void;
  onToggleRow(key: string): void;
  /** a shiftable group's title dragged: move its rows by `deltaSec` */
  onShiftGroup?(groupId: string, deltaSec: number): void;
  keyboard?: boolean;
}) {
  const { groups, fit, windowKey, clock, selected, keyboard = true } = props;
  const labelWidth = props.labelWidth ?? 260;
  const scroller = useRef<HTMLDivElement>(null);
  const canvas = useRef<HTMLCanvasElement>(null);
  const body = useRef<HTMLDivElement>(null);
  const [size, setSize] = useState({ width: 800, height: 400 });
  const [scrollTop, setScrollTop] = useState(0);
  const [hover, setHover] = useState<{ x: number; y: number; hit: HitBox | null } | null>(null);
  const hovered = useHovered(hover?.hit ?? null);
  const [hiddenNames, setHiddenNames] = useState<Set<string>>(new Set());
  const [highlightNames, setHighlightNames] = useState<string[] | null>(null);
  const [stats, setStats] = useState<Map<number, RowDrawStats>>(new Map());
  const hits = useRef<HitBox[]>([]);
  const drag = useRef<{ x: number; window: Window } | null>(null);
  const pointerFrac = useRef<number | null>(null);
  const laneHeight = useViewStore((s) => s.laneHeight);

  // the window, kept in the view store so it outlives a tab switch and can be shared
  const stored = useViewStore((s) => s.windows[windowKey]);
  const storeWindow = useViewStore((s) => s.setWindow);
  const window = stored ?? fit;
  const setWindow = useCallback((w: Window) => storeWindow(windowKey, w), [storeWindow, windowKey]);
  const viewport = useMemo(() => ({ window, fitAll: fit, setWindow }), [window, fit, setWindow]);

  useEffect(() => {
    const el = body.current;
    if (!el) return;
    const observer = new ResizeObserver(([entry]) =>
      setSize({ width: entry.contentRect.width, height: entry.contentRect.height }),
    );
    observer.observe(el);
    return () => observer.disconnect();
  }, []);

  const layout = useMemo(() => layoutLaneGroups(groups, laneHeight), [groups, laneHeight]);
  const viewHeight = Math.max(50, size.height - AXIS_HEIGHT);
  const canvasWidth = Math.max(100, size.width - labelWidth);
  const [first, last] = visibleRange(layout, scrollTop, viewHeight);
  const entryIndex = useMemo(() => {
    const map = new Map<string, number>();
    layout.entries.forEach((e, i) => e.kind === 'row' && map.set(e.row.key, i));
    return map;
  }, [layout]);

  // ask for the rows in view (and a screen around them) that have no items yet
  const { onNeedRows } = props;
  useEffect(() => {
    const wanted: string[] = [];
    const from = Math.max(0, first - 30);
    const to = Math.min(layout.entries.length - 1, last + 30);
    for (let i = from; i <= to; i++) {
      const e = layout.entries[i];
      if (e.kind === 'row' && !e.row.row) wanted.push(e.row.key);
    }
    if (wanted.length > 0) onNeedRows(wanted);
  }, [layout, first, last, onNeedRows]);

  const selectedAt = selected ? entryIndex.get(selected.key) : undefined;
  const drawnSelection = useMemo(
    () => (selectedAt === undefined ? null : { rowId: selectedAt, index: selected?.index ?? null }),
    [selectedAt, selected?.index],
  );
  // a selection made elsewhere (details' "back to the sample", an unjoined request) is scrolled
  // into view once
  useEffect(() => {
    if (selectedAt === undefined) return;
    const el = scroller.current;
    const top = layout.tops[selectedAt];
    if (
      el &&
      (top < el.scrollTop || top + layout.heights[selectedAt] > el.scrollTop + el.clientHeight)
    )
      el.scrollTop = Math.max(0, top - el.clientHeight / 3);
    // only when the selection moves, not when rows arrive
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [selectedAt]);
  useLaneCanvas(
    canvas,
    {
      layout,
      first,
      last,
      scrollTop,
      window,
      width: canvasWidth,
      height: viewHeight,
      laneHeight,
      hiddenNames,
      highlightNames,
      selected: drawnSelection,
      hovered,
    },
    (drawnHits, drawnStats) => {
      hits.current = drawnHits;
      setStats(drawnStats);
    },
  );
  useWheelZoom(scroller, canvas, viewport);

  const rowOf = (i: number | undefined) => {
    const e = i === undefined ? undefined : layout.entries[i];
    return e?.kind === 'row' ? e.row : undefined;
  };
  const scrollTo = (i: number) => {
    const el = scroller.current;
    const top = layout.tops[i];
    if (el && (top < el.scrollTop || top + layout.heights[i] > el.scrollTop + viewHeight))
      el.scrollTop = Math.max(0, top - viewHeight / 3);
  };
  useTimelineKeys(keyboard, {
    zoom: (factor) => setWindow(zoomWindow(window, factor, pointerFrac.current ?? 0.5)),
    pan: (frac) => setWindow(panWindow(window, frac)),
    fitAll: () => setWindow(fit),
    fitSelection: () => {
      const row = rowOf(selectedAt)?.row;
      if (!row) return setWindow(fit);
      const item = selected?.index == null ? null : row.items[selected.index];
      setWindow(
        item ? fitWindow(item.startSec, item.endSec, 0.1) : fitWindow(row.startSec, row.endSec),
      );
    },
    clearSelection: () => props.onSelect(null),
    moveSelection: (step) => {
      let i = selectedAt ?? (step > 0 ? -1 : layout.entries.length);
      do i += step;
      while (i >= 0 && i < layout.entries.length && layout.entries[i].kind !== 'row');
      const row = rowOf(i);
      if (!row) return;
      props.onSelect({ key: row.key, index: null });
      scrollTo(i);
    },
    moveItem: (step) => {
      const row = rowOf(selectedAt);
      if (!row?.row) return;
      const index = steppedItem(row.row.items, selected?.index ?? null, step, hiddenNames);
      if (index !== null) props.onSelect({ key: row.key, index });
    },
    toggleSelectedRow: () => {
      const row = rowOf(selectedAt);
      if (!row?.opens) return false;
      props.onToggleRow(row.key);
      return true;
    },
  });

  const secAt = (x: number) =>
    window.startSec + (x / canvasWidth) * (window.endSec - window.startSec);
  const pointer = (event: React.MouseEvent) => {
    const rect = canvas.current!.getBoundingClientRect();
    return { x: event.clientX - rect.left, y: event.clientY - rect.top };
  };
  const decimals = decimalsForPixel((window.endSec - window.startSec) / canvasWidth);
  const clockOf = (sec: number) => clockText(clock, sec, decimals);
  const hoverRow = hover?.hit ? rowOf(hover.hit.rowId) : undefined;
  const hoverItem = hover?.hit ? hoverRow?.row?.items[hover.hit.index] : undefined;
  const pxSec = (window.endSec - window.startSec) / canvasWidth;
  const hoverPhase = hover && hoverItem?.pd ? phaseAt(hoverItem, secAt(hover.x), pxSec / 2) : null;
  const spanNames = useMemo(() => laneSpanNames(groups), [groups]);

  return (
    <div className="timeline lane-timeline" data-testid="lane-timeline">
      <Legend
        file={{ spanNames }}
        hidden={hiddenNames}
        highlight={highlightNames}
        onHighlight={(name) => setHighlightNames(name === null ? null : [name])}
        onToggleHidden={(name) =>
          setHiddenNames((prev) => {
            const next = new Set(prev);
            if (next.has(name)) next.delete(name);
            else next.add(name);
            return next;
          })
        }
      />
      {props.decor && (
        <div className="lane-decor" style={{ marginLeft: labelWidth }}>
          {props.decor(window, canvasWidth)}
        </div>
      )}
      <div className="timeline-body" ref={body}>
        <TimeAxis
          window={window}
          width={canvasWidth}
          left={labelWidth}
          clock={clock}
          onZoomTo={setWindow}
        />
        <div
          className="timeline-scroll"
          ref={scroller}
          style={{ height: viewHeight }}
          onScroll={(event) => setScrollTop(event.currentTarget.scrollTop)}
        >
          <div className="timeline-content" style={{ height: Math.max(layout.total, viewHeight) }}>
            <div className="timeline-labels" style={{ width: labelWidth }}>
              {layout.entries.slice(first, last + 1).map((entry, k) => {
                const i = first + k;
                const key = entry.kind === 'row' ? entry.row.key : `group:${entry.group.id}`;
                return (
                  <LaneLabel
                    key={key}
                    entry={entry}
                    top={layout.tops[i]}
                    height={layout.heights[i]}
                    laneHeight={laneHeight}
                    selected={selectedAt === i}
                    stats={stats.get(i)}
                    onSelect={() =>
                      entry.kind === 'row' && props.onSelect({ key: entry.row.key, index: null })
                    }
                    onToggle={() => entry.kind === 'row' && props.onToggleRow(entry.row.key)}
                    onShift={
                      props.onShiftGroup &&
                      ((dx) =>
                        props.onShiftGroup?.(
                          entry.group.id,
                          (dx / canvasWidth) * (window.endSec - window.startSec),
                        ))
                    }
                  />
                );
              })}
            </div>
            <canvas
              ref={canvas}
              className="timeline-canvas"
              data-testid="lane-canvas"
              style={{ left: labelWidth, top: scrollTop, width: canvasWidth, height: viewHeight }}
              onMouseDown={(event) => {
                if (event.button === 0) drag.current = { x: event.clientX, window };
              }}
              onMouseMove={(event) => {
                const { x, y } = pointer(event);
                pointerFrac.current = Math.min(1, Math.max(0, x / canvasWidth));
                if (drag.current && Math.abs(event.clientX - drag.current.x) > 3) {
                  setWindow(
                    panWindow(drag.current.window, -(event.clientX - drag.current.x) / canvasWidth),
                  );
                  setHover(null);
                  return;
                }
                setHover({ x, y, hit: hitAt(hits.current, x, y) });
              }}
              onMouseUp={(event) => {
                const dragged = drag.current && Math.abs(event.clientX - drag.current.x) > 3;
                drag.current = null;
                if (dragged) return;
                const { x, y } = pointer(event);
                const hit = hitAt(hits.current, x, y);
                const row = rowOf(hit ? hit.rowId : rowAt(layout, y + scrollTop));
                if (row) props.onSelect({ key: row.key, index: hit ? hit.index : null });
              }}
              onMouseLeave={() => {
                drag.current = null;
                pointerFrac.current = null;
                setHover(null);
              }}
            />
            {hover && (
              <div
                className="cursor-line"
                style={{ left: labelWidth + hover.x, top: scrollTop, height: viewHeight }}
              />
            )}
          </div>
        </div>
        {hover?.hit && hoverItem && hoverRow && (
          <TimelineTooltip
            item={hoverItem}
            phase={hoverPhase}
            row={[hoverRow.label, hoverRow.detail].filter(Boolean).join(' · ')}
            rowItems={hoverRow.row?.items}
            left={Math.min(labelWidth + hover.x + 14, size.width - 300)}
            top={hover.y + AXIS_HEIGHT + 12}
            clock={clockOf}
          />
        )}
      </div>
    </div>
  );
}
