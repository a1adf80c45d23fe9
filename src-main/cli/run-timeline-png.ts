import { writeFileSync } from 'node:fs';
import { basename, dirname, relative } from 'node:path';
import { ingest } from '../ingest/open-sources';
import type { RunFiles } from '../ingest/run-files';
import { queryRows } from '../core/store/query-rows';
import { getRowViews } from '../core/store/row-views';
import { runDigest } from '../core/run/run-digest';
import { runSnapshot } from '../core/report/build-report-snapshot';
import type { FileSummary } from '../core/api/trace-api';
import type { OpenedTrace } from '../core/open/opened-trace';
import { fileError } from './rows-output';
import { checkWindow, loadCanvas } from './load-canvas';
import type { TimelinePngOptions, TimelinePngResult } from './timeline-png';
// the app's own run tab composition and drawing (scripts/check-layers.mjs, SHARED_DRAWING)
import { composeRunPicture, runPicture } from '../../src-renderer/run/run-picture';
import { pictureLayout, type PictureContext } from '../../src-renderer/timeline/timeline-picture';

/**
 * A run folder's timeline as a PNG, headless: every trace in it opened by the CLI's pipeline,
 * joined as the app's run tab joins them (the report's runSnapshot), and drawn as the run tab
 * first shows it (run-picture.ts): trainer ranks, samples by start, GPU profiles' ranks, the
 * rollout bands above the axis. A file that cannot be opened is left out and said; the rest
 * is drawn. `trace-explorer report RUN --png` calls it.
 */
export async function writeRunTimelinePng(
  run: { path: string; files: RunFiles },
  options: Omit<TimelinePngOptions, 'path'>,
): Promise<TimelinePngResult> {
  const { out, width = 1440, height = 900, pixelRatio = 2 } = options;
  checkWindow(run.path, options.window);
  const opened: { trace: OpenedTrace; path: string }[] = [];
  const skipped: string[] = [];
  for (const group of run.files.groups) {
    try {
      opened.push({
        trace: ingest({ sources: group.map((path) => ({ kind: 'path', path })) }),
        path: group[0],
      });
    } catch (error) {
      skipped.push(fileError(group[0], error).message);
    }
  }
  if (opened.length === 0) {
    throw new Error(`${run.path}: no trace of the run could be opened [picture/empty-run]`);
  }
  const createCanvas = await loadCanvas(run.path);
  const result = runSnapshot(
    opened.map(({ trace, path }, i) => ({
      // named from the run folder's parent, as a report names them (two trainer files of one
      // name are told apart by their folders)
      summary: {
        ...trace.summary,
        fileId: `file-${i}`,
        path: relative(dirname(run.path), path),
      } as FileSummary,
      digest: runDigest(trace),
    })),
    { name: basename(run.path), skipped: run.files.skipped, paths: [] },
  );
  const stores = opened.map(({ trace }) => trace.store);
  const probe = createCanvas(1, 1).getContext('2d') as unknown as PictureContext;
  const made = runPicture(
    {
      result,
      orderOf: (file) => {
        const store = stores[file];
        const rowIds = queryRows(store, { sort: 'start' });
        const at = (k: number) => store.rowIndexById.get(rowIds[k]) ?? 0;
        return {
          rowIds,
          startSec: Float64Array.from(rowIds, (_id, k) => store.rowStart[at(k)]),
          endSec: Float64Array.from(rowIds, (_id, k) => store.rowEnd[at(k)]),
        };
      },
      rowsOf: (file, rowIds) => getRowViews(stores[file], rowIds),
    },
    {
      width,
      height,
      window: options.window,
      probe,
    },
  );
  const size = pictureLayout(probe, made.picture);
  const canvas = createCanvas(
    Math.round(size.width * pixelRatio),
    Math.round(size.height * pixelRatio),
  );
  const drawn = composeRunPicture(
    canvas.getContext('2d') as unknown as PictureContext,
    made,
    pixelRatio,
  );
  writeFileSync(out, canvas.toBuffer('image/png'));
  return {
    width: canvas.width,
    height: canvas.height,
    plot: drawn.plot,
    window: made.window,
    rows: made.picture.rows.length,
    skipped,
  };
}
