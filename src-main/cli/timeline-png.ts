import { writeFileSync } from 'node:fs';
import { ingest } from '../ingest/open-sources';
import { queryRows } from '../core/store/query-rows';
import { getRowViews } from '../core/store/row-views';
import type { RowView } from '../core/api/trace-api';
import { fileError } from './rows-output';
import { checkWindow, loadCanvas } from './load-canvas';
// the app's own drawing: pure modules over a 2D context (scripts/check-layers.mjs, SHARED_DRAWING)
import { drawRowsOf } from '../../src-renderer/timeline/draw-rows';
import {
  LANE_HEIGHT,
  ROW_PADDING,
  defaultExpandedRows,
  layoutRows,
  visibleRange,
} from '../../src-renderer/timeline/row-layout';
import { fittedLabelWidth, labelColumnChars } from '../../src-renderer/timeline/row-label-text';
import { fitAllWindow, type Window } from '../../src-renderer/timeline/time-window';
import { fileLegendNames } from '../../src-renderer/timeline/legend-entries';
import { axisTicks, timelineClock } from '../../src-renderer/timeline/timeline-clock';
import {
  composeTimelinePicture,
  plainPictureDraw,
  pictureLayout,
  pictureLegend,
  type PictureContext,
  type TimelinePicture,
} from '../../src-renderer/timeline/timeline-picture';

export interface TimelinePngOptions {
  /** the trace to open, as the CLI opens it */
  path: string;
  /** seconds from the file's start; the app's "fit all" window when absent */
  window?: Window;
  /** where the PNG is written */
  out: string;
  /** the picture's size in CSS pixels (the PNG is pixelRatio times larger): 1440 x 900 */
  width?: number;
  height?: number;
  /** device pixels per CSS pixel: 2, as the app's pictures */
  pixelRatio?: number;
}

export interface TimelinePngResult {
  /** the PNG's size in device pixels */
  width: number;
  height: number;
  /** where the rows are, CSS pixels (the app's canvas in the picture) */
  plot: { x: number; y: number; width: number; height: number };
  window: Window;
  /** rows drawn */
  rows: number;
  /** a run's files that could not be opened and were left out: path, what is wrong, code */
  skipped?: string[];
}

/**
 * The timeline of `path` as a PNG, headless: the file opened by the CLI's pipeline, its rows in
 * the app's default order (row id) from the top, drawn by the app's own drawTimeline and
 * picture composition into a skia canvas, in the light theme. `trace-explorer report FILE
 * --png` calls it.
 */
export async function writeTimelinePng(options: TimelinePngOptions): Promise<TimelinePngResult> {
  const { path, out, width = 1440, height = 900, pixelRatio = 2 } = options;
  checkWindow(path, options.window);
  let trace;
  try {
    trace = ingest({ sources: [{ kind: 'path', path }] });
  } catch (error) {
    throw fileError(path, error);
  }
  const createCanvas = await loadCanvas(path);
  const file = trace.summary;
  const window = options.window ?? fitAllWindow(file);
  const rowIds = queryRows(trace.store, { sort: 'row_id' });
  const probe = createCanvas(1, 1).getContext('2d') as unknown as PictureContext;
  // the label column and the legend's height depend on the rows shown: laid out once with every
  // candidate row, then the plot takes what is left of the height
  const labelWidth = fittedLabelWidth(
    labelColumnChars(getRowViews(trace.store, Array.from(rowIds.subarray(0, 200))), file.rows),
  );
  const base: TimelinePicture = {
    draw: plainPictureDraw(Math.max(100, width - labelWidth), window),
    rows: [],
    labelWidth,
    ticks: [],
    legend: pictureLegend({ spanNames: fileLegendNames(file) }, new Set()),
  };
  const plotHeight = Math.max(50, height - pictureLayout(probe, base).height);
  const views = new Map<number, RowView>();
  const laneCounts = new Int32Array(rowIds.length);
  // lane counts of the rows that can show: a screen's worth of collapsed (one-lane) rows
  const reach = Math.min(rowIds.length, Math.ceil(plotHeight / (LANE_HEIGHT + ROW_PADDING)) + 1);
  for (const view of getRowViews(trace.store, Array.from(rowIds.subarray(0, reach)))) {
    views.set(view.rowId, view);
  }
  for (let i = 0; i < reach; i++) laneCounts[i] = views.get(rowIds[i])?.laneCount ?? 1;
  const shown = laneCounts.subarray(0, reach);
  // rows open as the app opens the file (useRowExpansion)
  const leading = defaultExpandedRows(
    shown,
    plotHeight,
    LANE_HEIGHT,
    file.capabilities.gpuProfile === true,
  );
  const expandedAt = (i: number) => i < leading;
  const layout = layoutRows(shown, expandedAt, LANE_HEIGHT);
  const [first, last] = visibleRange(layout, 0, plotHeight);
  const picture: TimelinePicture = {
    ...base,
    draw: { ...base.draw, height: plotHeight },
    rows: drawRowsOf({
      rowIds,
      rowsById: views,
      layout,
      first,
      last,
      scrollTop: 0,
      expandedAt,
      dimmedRow: () => false,
    }),
    ticks: axisTicks(window, base.draw.width, timelineClock(0, null)),
  };
  const size = pictureLayout(probe, picture);
  const canvas = createCanvas(
    Math.round(size.width * pixelRatio),
    Math.round(size.height * pixelRatio),
  );
  const ctx = canvas.getContext('2d') as unknown as PictureContext;
  const drawn = composeTimelinePicture(ctx, picture, pixelRatio);
  writeFileSync(out, canvas.toBuffer('image/png'));
  return {
    width: canvas.width,
    height: canvas.height,
    plot: drawn.plot,
    window,
    rows: picture.rows.length,
  };
}
