import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import type { ShownOrder } from '../host/shown-order';
import type { FileSummary } from '../../src-main/core/api/trace-api';
import { useViewStore } from '../state/view-store';
import { useRowPage } from '../host/data-hooks';
import { visibleRange } from './row-layout';
import { timelineClock } from './timeline-clock';
import { useViewport } from './use-viewport';
import { useRowExpansion } from './use-row-expansion';
import { usePlotBox } from './use-plot-box';
import { useTimelinePlot } from './use-timeline-plot';
import { TimelineBody } from './TimelineBody';
import { CursorReadout } from './CursorReadout';
import { TimelineControls } from './TimelineControls';
import { RowLabel } from './RowLabel';
import { fittedLabelWidth, labelColumnChars } from './row-label-text';
import { Legend } from './Legend';
import { fileLegendNames, withToggled, type SpanNameCount } from './legend-entries';
import { idleGapsByRow } from './idle-gaps';
import { drawRowsOf } from './draw-rows';
import { pictureLegend } from './timeline-picture';
import { timelinePicturePng } from './timeline-picture-png';
import { PictureMenu } from '../picture/PictureMenu';
import './timeline.css';

const FETCH_MARGIN = 30;
const EMPTY_ROW_IDS = new Int32Array(0);

/**
 * The virtualized timeline of one file: legend, time axis, label column and the canvas of bars
 * and markers. The plot (drawing, pointer, keys, cursor, picture: use-timeline-plot and
 * TimelineBody) is the run tab's too (LaneTimeline); here are the file's parts: its viewport
 * (use-viewport), row paging (useRowPage), lane expansion, row labels and the wall clock.
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
    spanNames: SpanNameCount[] | null;
    hidden: Set<string>;
    onToggleHidden(name: string): void;
  };
}) {
  const box = usePlotBox(windowKey);
  const { scrollTop, viewHeight } = box;
  const [ownHiddenNames, setHiddenNames] = useState<Set<string>>(new Set());
  const hiddenNames = legend?.hidden ?? ownHiddenNames;
  const fileNames = useMemo(() => fileLegendNames(file), [file]);
  // one choice per window key: compared timelines read the same clock, and it stays when the
  // timeline is shown again (a state of its own was per side, and lost on a view's switch)
  const wallClock = useViewStore((s) => s.wallClocks[windowKey] ?? false);
  const storeWallClock = useViewStore((s) => s.setWallClock);
  const setWallClock = useCallback(
    (on: boolean) => storeWallClock(windowKey, on),
    [storeWallClock, windowKey],
  );
  const selection = useViewStore((s) => s.selection);
  const select = useViewStore((s) => s.select);
  const filterMode = useViewStore((s) => s.filterMode);
  const storedCursor = useViewStore((s) => s.cursors[windowKey] ?? null);
  const setCursor = useViewStore((s) => s.setCursor);
  const matching = useViewStore((s) => s.matchingRowIds);
  const laneHeight = useViewStore((s) => s.laneHeight);
  const draggedLabelWidth = useViewStore((s) => s.labelWidth);
  const setLabelWidth = useViewStore((s) => s.setLabelWidth);
  const highlightNames = useViewStore((s) => s.highlightNames);
  const setHighlightNames = useViewStore((s) => s.setHighlightNames);

  const viewport = useViewport(file, windowKey, fitSec, originSec);
  const idleGaps = useMemo(() => idleGapsByRow(file), [file]);
  const rowIds = order?.rowIds ?? EMPTY_ROW_IDS;
  const expansion = useRowExpansion(
    rowIds,
    order?.laneCounts ?? EMPTY_ROW_IDS,
    laneHeight,
    viewHeight,
    // a GPU profile's rows are ranks, each a screen of threads and streams: the first open
    file.capabilities.gpuProfile === true,
  );
  const { layout, expandedAt } = expansion;
  const [first, last] = visibleRange(layout, scrollTop, viewHeight);
  // a big row (a GPU rank's) is sent for the window shown, at about the canvas' pixels
  const { rows: rowsById, failed } = useRowPage(file.fileId, rowIds, first, last, FETCH_MARGIN, {
    ...viewport.window,
    pixels: Math.max(100, box.width),
  });

  // the label column fits the largest index and group seen (at least the row count's digits)
  const chars = useMemo(
    () => labelColumnChars(rowsById.values(), file.rows),
    [rowsById, file.rows],
  );
  // a named row (capabilities.namedRows) shows its name too: room for `decode Req 5e0f1a2b`
  const named = file.capabilities.namedRows === true;
  const labelWidth = draggedLabelWidth ?? fittedLabelWidth(chars, named);
  const canvasWidth = Math.max(100, box.width - labelWidth);

  const dimmedRow = useCallback(
    (rowId: number) => filterMode === 'highlight' && matching !== null && !matching.has(rowId),
    [filterMode, matching],
  );
  const selected = selection && selection.fileId === file.fileId ? selection : null;
  const rows = useMemo(
    () => drawRowsOf({ rowIds, rowsById, layout, first, last, scrollTop, expandedAt, dimmedRow }),
    [rowIds, rowsById, layout, first, last, scrollTop, expandedAt, dimmedRow],
  );
  // one clock everywhere (axis, cursor readout, tooltip): from this timeline's origin (the
  // file's start; a compared rollout's own window start) or the wall clock (UTC)
  const clock = useMemo(
    () => timelineClock(originSec, wallClock ? (file.globalStartSec ?? 0) : null),
    [originSec, wallClock, file.globalStartSec],
  );
  const selectRow = (rowId: number, index: number | null = null) =>
    select({ fileId: file.fileId, rowId, index });
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
      selected,
      idleGaps,
    },
    clock,
    keyboard,
    rowOf: (rowId) => rowsById.get(rowId),
    selecting: {
      selected: selected && { row: rowsById.get(selected.rowId), index: selected.index },
      pick: (hit, at) => {
        if (hit) selectRow(hit.rowId, hit.index);
        else if (at >= 0) selectRow(rowIds[at]);
      },
      selectItem: (index) => selected && selectRow(selected.rowId, index),
      clear: () => select(null),
      move: (step) => {
        if (rowIds.length === 0) return;
        const at = selection ? rowIds.indexOf(selection.rowId) : -1;
        const next = Math.max(0, Math.min(rowIds.length - 1, at < 0 ? 0 : at + step));
        selectRow(rowIds[next]);
        plot.reveal(next);
      },
      toggle: () => {
        if (!selection) return false;
        expansion.toggleRow(selection.rowId);
        return true;
      },
    },
    cursor: {
      sec: storedCursor === null ? null : storedCursor + originSec,
      set: (sec) => setCursor(windowKey, sec === null ? null : sec - originSec),
    },
  });

  // a row selected elsewhere (a Query result's row) is scrolled into view once the timeline
  // shows it: the first time its rows include the selected one after mounting
  const revealed = useRef(false);
  useEffect(() => {
    if (revealed.current || !selected) return;
    const at = rowIds.indexOf(selected.rowId);
    if (at < 0 || !box.scroller.current) return;
    revealed.current = true;
    plot.reveal(at);
    // plot.reveal reads the layout and the box it is given now
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [selected, rowIds, layout, viewHeight]);

  // the picture: what is shown now, drawn again at 2x by the same code (timeline-picture.ts);
  // where its rows went is left on the element for whoever compares it with the canvas
  const root = useRef<HTMLDivElement>(null);
  const picturePng = () =>
    timelinePicturePng(
      plot.picture({
        labelWidth,
        legend:
          legend?.spanNames === null
            ? []
            : pictureLegend({ spanNames: legend ? legend.spanNames : fileNames }, hiddenNames),
      }),
      root.current,
    );

  const startResize = (event: React.MouseEvent) => {
    event.preventDefault();
    const x0 = event.clientX;
    const w0 = labelWidth;
    const move = (e: MouseEvent) =>
      setLabelWidth(Math.max(120, Math.min(box.width - 200, w0 + e.clientX - x0)));
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
          legend?.onToggleHidden ?? ((name) => setHiddenNames((prev) => withToggled(prev, name)))
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
      <TimelineBody
        plot={plot}
        labelWidth={labelWidth}
        canvasTestId="timeline-canvas"
        labels={
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
                  error={failed.get(rowId)}
                  named={named}
                  top={layout.tops[i]}
                  height={layout.heights[i]}
                  lanes={order!.laneCounts[i]}
                  laneHeight={laneHeight}
                  expanded={expandedAt(i)}
                  selected={selected?.rowId === rowId}
                  stats={plot.stats.get(rowId)}
                  dimmed={dimmedRow(rowId)}
                  onToggle={() => expansion.toggleRow(rowId)}
                  onSelect={() => selectRow(rowId)}
                />
              );
            })}
          </div>
        }
        overlay={
          rowIds.length === 0 &&
          order && (
            <div className="timeline-empty" data-testid="timeline-empty">
              {file.rows === 0 ? 'This file has no rows to draw.' : 'No rows match the filter.'}
            </div>
          )
        }
      >
        <div
          className="label-resizer"
          data-testid="label-resizer"
          style={{ left: labelWidth - 3, top: scrollTop, height: viewHeight }}
          onMouseDown={startResize}
          onDoubleClick={() => setLabelWidth(null)}
          title="Drag to resize the label column; double-click to fit"
        />
      </TimelineBody>
      <CursorReadout
        order={order}
        cursorSec={plot.cursorSec}
        hoverRow={plot.hoverRow}
        clock={plot.clockText}
        exactClock={plot.exactClockText}
      />
    </div>
  );
}
