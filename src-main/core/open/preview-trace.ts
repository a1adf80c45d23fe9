import type { PerfView } from '../api/trace-api';
import type { TraceSamples } from '../model/sample-facts';
import type { FormatDescriptor } from '../formats/format-descriptor';
import type { TraceStore } from '../store/build-store';
import { buildStoreStats } from '../store/store-stats';
import type { OpenedTrace } from './opened-trace';
import { buildRolloutFigures } from './build-rollout-figures';

/** What a preview knows of its file before the rows: its name, size and format. */
export interface PreviewFile {
  name: string;
  bytes: number;
  format: FormatDescriptor;
}

const NO_PERF: PerfView = {
  perf: {},
  series: [],
  running: { tSec: new Float64Array(0), running: new Int32Array(0) },
  durations: [],
  rollout: buildRolloutFigures([], [], null),
};

/**
 * The rows read so far as an opened trace of their own (summary marked `streaming`, `store` of
 * just those rows), so that they can be shown and queried while the rest of the file is read.
 * Its perf view is empty: perf keys need every request.
 */
export function buildPreviewTrace(
  file: PreviewFile,
  store: TraceStore,
  samples: TraceSamples,
): OpenedTrace {
  const kept = store.rows;
  const { format } = file;
  return {
    summary: {
      name: file.name,
      format: format.id,
      formatLabels: format.labels,
      capabilities: format.capabilities,
      bytes: file.bytes,
      samples: samples.count,
      untracedSamples: samples.count - kept.length,
      skippedLines: { count: 0, examples: [] },
      rolloutId: null,
      notices: [],
      streaming: true,
      ...buildStoreStats(store),
    },
    format,
    store,
    perf: NO_PERF,
    samples,
    rows: kept,
  };
}

/**
 * When a new preview is worth building: the first rows at once, then each time the row count
 * has doubled, or grown by half after two seconds. Each preview's store copies the columns of
 * the rows so far (GrowingRowsStore), so doubling keeps their total within twice the final's. Measured on a generated
 * 20k-sample dump (CPU time, one thread): building rows while reading +5%, previews +15-20%.
 */
export function previewSchedule(now: () => number = Date.now) {
  let shownRows = 0;
  let shownAt = 0;
  return (rowCount: number): boolean => {
    if (rowCount === 0) return false;
    const t = now();
    const due =
      shownRows === 0 ||
      rowCount >= shownRows * 2 ||
      (rowCount >= shownRows * 1.5 && t - shownAt >= 2000);
    if (!due) return false;
    shownRows = rowCount;
    shownAt = t;
    return true;
  };
}
