import type { RowView, RunResult } from '../../src-main/core/api/trace-api';
import type { DrawContext } from '../timeline/draw-context';
import {
  LANE_LABEL_WIDTH,
  laneSpanNames,
  layoutLaneGroups,
  shiftRow,
} from '../timeline/lane-group';
import { laneDrawRows, lanePictureLabels } from '../timeline/lane-rows';
import { LANE_HEIGHT, visibleRange } from '../timeline/row-layout';
import { fitWindow, type Window } from '../timeline/time-window';
import { axisTicks, timelineClock } from '../timeline/timeline-clock';
import {
  composeTimelinePicture,
  plainPictureDraw,
  pictureLayout,
  pictureLegend,
  type PictureContext,
  type PictureLayout,
  type TimelinePicture,
} from '../timeline/timeline-picture';
import { distinctTabNames } from '../units/tab-names';
import { drawRunBands } from './draw-run-bands';
import { runBandStrip, type RunBandStrip } from './run-bands';
import { gpuProfileLanes } from './run-gpu';
import {
  byTrainerOrder,
  linksBySampleOf,
  parseLaneKey,
  runBarCounts,
  runLaneGroups,
  trainerRowsOf,
  type TrainerRow,
} from './run-lanes';
import { fileShiftSec, keyOf, runExtent, sampleRows, type SampleOrder } from './run-model';

// The run tab's picture without the page (the CLI's `report RUN --png`): its lane groups made
// by the functions RunView uses (trainer ranks, samples by start, each GPU profile's ranks),
// as the tab first shows them: fit to the run, scrolled to the top, no sample opened, no
// filter. The rows are drawn by the timeline's own picture code, the band strip on the canvas.

/** What the picture asks of the run's opened files (the stores, in the CLI). */
export interface RunPictureData {
  result: RunResult;
  /** a file's rows by start, with their times in seconds from the file's start */
  orderOf(file: number): SampleOrder;
  /** row views of a file (seconds from the file's start), asked only for what is drawn */
  rowsOf(file: number, rowIds: number[]): RowView[];
}

export interface RunPicture {
  picture: TimelinePicture;
  bands: RunBandStrip;
  window: Window;
}

/**
 * The run tab's picture of `width` x `height` CSS pixels: `window` in seconds of the run's
 * clock (its fit when absent); `probe` measures text for the legend's lines.
 */
export function runPicture(
  data: RunPictureData,
  options: { width: number; height: number; window?: Window; probe: DrawContext },
): RunPicture {
  const { result } = data;
  const extent = runExtent(result);
  const zeroSec = extent.startSec;
  const window = options.window ?? fitWindow(0, extent.endSec - extent.startSec, 0.01);
  const shift = (file: number) => fileShiftSec(result, file, zeroSec);
  const names = distinctTabNames(result.files.map(({ file }) => file));
  const all = (file: number) => Array.from(data.orderOf(file).rowIds);

  const trainer: TrainerRow[] = [];
  const orders = new Map<number, SampleOrder>();
  const gpu: ReturnType<typeof gpuProfileLanes>[] = [];
  result.files.forEach(({ file, role }, index) => {
    if (role === 'trainer')
      trainer.push(...trainerRowsOf(index, file, data.rowsOf(index, all(index)), shift(index)));
    if (role === 'samples') orders.set(index, data.orderOf(index));
    if (role === 'gpu')
      gpu.push(
        gpuProfileLanes({
          file: index,
          fileName: names[index],
          summary: file,
          rows: data.rowsOf(index, all(index)).sort((a, b) => a.rowId - b.rowId),
          fileShiftSec: shift(index),
          offsetSec: 0,
          // no fit: every rank drawn whole
          toggled: new Set(),
        }),
      );
  });
  trainer.sort(byTrainerOrder);
  const lanes = {
    trainer,
    samples: sampleRows(result, orders),
    serverViews: new Map<string, RowView>(),
    linksBySample: linksBySampleOf(result),
    opened: new Set<string>(),
    gpu,
    barCounts: runBarCounts(result),
  };
  const unfetched = runLaneGroups({ ...lanes, views: new Map() });

  const labelWidth = LANE_LABEL_WIDTH;
  const plotWidth = Math.max(100, options.width - labelWidth);
  const bands = runBandStrip(result.joins, zeroSec, window, plotWidth);
  const base: TimelinePicture = {
    draw: plainPictureDraw(plotWidth, window),
    rows: [],
    labelWidth,
    ticks: axisTicks(window, plotWidth, timelineClock(0, null)),
    // the legend counts the whole run (its files' counts), whatever rows are drawn
    legend: pictureLegend({ spanNames: laneSpanNames(unfetched) }, new Set()),
    decorHeight: bands.height,
  };
  const plotHeight = Math.max(50, options.height - pictureLayout(options.probe, base).height);
  // samples are drawn collapsed, one lane each fetched or not: the rows in view are known
  // before any is fetched, and only those are
  const unfetchedLayout = layoutLaneGroups(unfetched, LANE_HEIGHT);
  const [first, last] = visibleRange(unfetchedLayout, 0, plotHeight);
  const views = new Map<string, RowView>();
  const wanted = new Map<number, number[]>();
  for (const entry of unfetchedLayout.entries.slice(first, last + 1)) {
    const parsed = entry.kind === 'row' ? parseLaneKey(entry.row.key) : null;
    if (parsed?.kind === 's')
      wanted.set(parsed.file, [...(wanted.get(parsed.file) ?? []), parsed.rowId]);
  }
  for (const [file, rowIds] of wanted)
    for (const view of data.rowsOf(file, rowIds))
      views.set(keyOf(file, view.rowId), shiftRow(view, shift(file)));
  const layout = layoutLaneGroups(runLaneGroups({ ...lanes, views }), LANE_HEIGHT);
  return {
    picture: {
      ...base,
      draw: { ...base.draw, height: plotHeight },
      rows: laneDrawRows(layout, first, last, 0),
      labels: lanePictureLabels(layout, first, last, 0),
    },
    bands,
    window,
  };
}

/** Draws the run's picture (composeTimelinePicture) with its band strip above the axis. */
export function composeRunPicture(
  ctx: PictureContext,
  { picture, bands }: RunPicture,
  pixelRatio: number,
): PictureLayout {
  const layout = composeTimelinePicture(ctx, picture, pixelRatio);
  if (layout.decor) {
    ctx.save();
    ctx.setTransform(pixelRatio, 0, 0, pixelRatio, 0, 0);
    ctx.translate(layout.decor.x, layout.decor.y);
    drawRunBands(ctx, bands, layout.decor.width, picture.draw.theme);
    ctx.restore();
  }
  return layout;
}
