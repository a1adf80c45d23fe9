import { useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { useViewStore } from '../state/view-store';
import { LANE_LABEL_WIDTH, layoutLaneGroups, laneSpanNames, type LaneGroup } from './lane-group';
import { laneDrawRows, lanePictureLabels } from './lane-rows';
import { visibleRange } from './row-layout';
import type { Window } from './time-window';
import type { TimelineClock } from './timeline-clock';
import { useStoredWindow } from './use-viewport';
import { usePlotBox } from './use-plot-box';
import { useTimelinePlot } from './use-timeline-plot';
import { TimelineBody } from './TimelineBody';
import { LaneLabel } from './LaneLabel';
import { Legend } from './Legend';
import { withToggled } from './legend-entries';
import { pictureLegend } from './timeline-picture';
import { timelinePicturePng } from './timeline-picture-png';
import { PictureMenu } from '../picture/PictureMenu';
import { elementCanvas, shownBackground } from '../picture/element-picture';
import './timeline.css';

/** What is selected in a lane timeline: a row (by key) and one of its items, or the row. */
export interface LaneSelection {
  key: string;
  index: number | null;
}

/**
 * The timeline of lane groups (a run's trainer ranks, its samples, a sample's SGLang request
 * threads, ...) on one clock: the file timeline's plot (useTimelinePlot, TimelineBody: the
 * same drawing, keys, wheel, drag, axis brush, hover, legend and picture) over entries that
 * are group titles and rows. The view owns the data: it hands groups of rows, fetches the rows
 * this asks for, and turns a selection into details.
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
  /** the rows' height in view, as measured (what the view's default expansion fits in) */
  onViewHeight?(height: number): void;
  keyboard?: boolean;
  /** the picture's file name, without extension */
  pictureName?: string;
  /** the window shown and the canvas' width, each time either changes */
  onWindow?(window: Window, width: number): void;
}) {
  const { groups, fit, windowKey, clock, selected, keyboard = true } = props;
  const labelWidth = props.labelWidth ?? LANE_LABEL_WIDTH;
  const box = usePlotBox(windowKey);
  const { scrollTop, viewHeight } = box;
  const [hiddenNames, setHiddenNames] = useState<Set<string>>(new Set());
  const [highlightNames, setHighlightNames] = useState<string[] | null>(null);
  const laneHeight = useViewStore((s) => s.laneHeight);
  const viewport = useStoredWindow(windowKey, fit);

  const layout = useMemo(() => layoutLaneGroups(groups, laneHeight), [groups, laneHeight]);
  const canvasWidth = Math.max(100, box.width - labelWidth);
  const [first, last] = visibleRange(layout, scrollTop, viewHeight);
  const entryIndex = useMemo(() => {
    const map = new Map<string, number>();
    layout.entries.forEach((e, i) => e.kind === 'row' && map.set(e.row.key, i));
    return map;
  }, [layout]);

  const { onViewHeight, onWindow } = props;
  useEffect(() => onViewHeight?.(viewHeight), [onViewHeight, viewHeight]);
  const { startSec, endSec } = viewport.window;
  useEffect(
    () => onWindow?.({ startSec, endSec }, canvasWidth),
    [onWindow, startSec, endSec, canvasWidth],
  );

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
  const rowOf = (i: number | undefined) => {
    const e = i === undefined ? undefined : layout.entries[i];
    return e?.kind === 'row' ? e.row : undefined;
  };
  const rows = useMemo(
    () => laneDrawRows(layout, first, last, scrollTop),
    [layout, first, last, scrollTop],
  );
  const plot = useTimelinePlot({
    box,
    viewport,
    layout,
    rows,
    drawing: {
      width: canvasWidth,
      laneHeight,
      hiddenNames,
      highlightNames,
      selected: drawnSelection,
    },
    clock,
    keyboard,
    rowOf: (i) => rowOf(i)?.row,
    selecting: {
      selected:
        selectedAt === undefined
          ? null
          : { row: rowOf(selectedAt)?.row, index: selected?.index ?? null },
      pick: (hit, at) => {
        const row = rowOf(hit ? hit.rowId : at);
        if (row) props.onSelect({ key: row.key, index: hit ? hit.index : null });
      },
      selectItem: (index) => selected && props.onSelect({ key: selected.key, index }),
      clear: () => props.onSelect(null),
      move: (step) => {
        let i = selectedAt ?? (step > 0 ? -1 : layout.entries.length);
        do i += step;
        while (i >= 0 && i < layout.entries.length && layout.entries[i].kind !== 'row');
        const row = rowOf(i);
        if (!row) return;
        props.onSelect({ key: row.key, index: null });
        plot.reveal(i);
      },
      toggle: () => {
        const row = rowOf(selectedAt);
        if (!row?.opens) return false;
        props.onToggleRow(row.key);
        return true;
      },
    },
  });
  // a selection made elsewhere (details' "back to the sample", an unjoined request) is scrolled
  // into view once
  useEffect(() => {
    if (selectedAt !== undefined) plot.reveal(selectedAt);
    // only when the selection moves, not when rows arrive
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [selectedAt]);

  const spanNames = useMemo(() => laneSpanNames(groups), [groups]);
  const hoverRow = plot.hover?.hit ? rowOf(plot.hover.hit.rowId) : undefined;
  // the picture: the canvas's rows drawn again at 2x with the label column's titles and names
  // and what the view draws above the axis, as the browser draws it (elementCanvas)
  const root = useRef<HTMLDivElement>(null);
  const decor = useRef<HTMLDivElement>(null);
  const picturePng = async () => {
    const shown = decor.current?.offsetHeight ? decor.current : null;
    const picture = plot.picture({
      labelWidth,
      legend: pictureLegend({ spanNames }, hiddenNames),
      labels: lanePictureLabels(layout, first, last, scrollTop),
    });
    return timelinePicturePng(
      { ...picture, decorHeight: shown?.offsetHeight },
      root.current,
      shown && (await elementCanvas(shown, shownBackground(shown))),
    );
  };

  return (
    <div className="timeline lane-timeline" data-testid="lane-timeline" ref={root}>
      <Legend
        file={{ spanNames }}
        hidden={hiddenNames}
        highlight={highlightNames}
        onHighlight={(name) => setHighlightNames(name === null ? null : [name])}
        onToggleHidden={(name) => setHiddenNames((prev) => withToggled(prev, name))}
      />
      <div className="lane-decor">
        {/* the label column's corner above the axis: room the legend's lines do not have */}
        <div className="lane-corner" style={{ width: labelWidth }}>
          <PictureMenu
            name={props.pictureName ?? 'timeline'}
            png={picturePng}
            command={keyboard}
            testId="timeline-picture"
          />
        </div>
        <div className="lane-decor-shown" ref={decor}>
          {props.decor?.(viewport.window, canvasWidth)}
        </div>
      </div>
      <TimelineBody
        plot={plot}
        labelWidth={labelWidth}
        canvasTestId="lane-canvas"
        tooltipRow={hoverRow && [hoverRow.label, hoverRow.detail].filter(Boolean).join(' · ')}
        labels={
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
                  stats={plot.stats.get(i)}
                  onSelect={() =>
                    entry.kind === 'row' && props.onSelect({ key: entry.row.key, index: null })
                  }
                  onToggle={() => entry.kind === 'row' && props.onToggleRow(entry.row.key)}
                  onShift={
                    props.onShiftGroup &&
                    ((dx) =>
                      props.onShiftGroup?.(
                        entry.group.id,
                        (dx / canvasWidth) * (viewport.window.endSec - viewport.window.startSec),
                      ))
                  }
                />
              );
            })}
          </div>
        }
      />
    </div>
  );
}
