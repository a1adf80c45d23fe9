import type { ByteSource } from '../bytes/byte-source';
import { FormatError } from '../bytes/format-error';
import type { FormatPartReader } from '../bytes/part-reader';
import type { OpenProgressReport, OpenStep } from '../formats/format-descriptor';
import {
  FORMATS,
  SNIFF_BYTES,
  expectedFormats,
  findFormat,
  type FormatList,
} from '../formats/registry';
import { buildStore } from '../store/build-store';
import { buildStoreStats } from '../store/store-stats';
import { buildPerfView } from './build-perf-view';
import type { OpenedTrace } from './opened-trace';
import { buildPreviewTrace, previewSchedule } from './preview-trace';

export type { OpenProgressReport, OpenStep, OpenedTrace };

export interface OpenOptions {
  onProgress?: (progress: OpenProgressReport) => void;
  shouldCancel?: () => boolean;
  joinByBootstrapRoom?: boolean;
  /** reads the end of a large file on another thread, for formats that can (readPart) */
  partReader?: FormatPartReader;
  /** called as each step ends: reading, rows, store, perf (for `summary --timings`) */
  onStepEnd?: (step: OpenStep) => void;
  /** the formats to open with (a test adds one); FORMATS when not given */
  formats?: FormatList;
  /**
   * The rows read so far, as a trace of their own (see preview-trace.ts), while the file is
   * still being read: formats that build rows as they read (FormatOpenOptions.onRows) call it
   * now and then (previewSchedule); others never do.
   */
  onPreview?: (preview: OpenedTrace) => void;
}

const NO_SKIPPED_LINES = { count: 0, examples: [] };

/**
 * file bytes -> format (sniff, open) -> store -> stats and perf view: the one pipeline behind
 * the worker, serve mode and the headless commands. `sources` are one file, or one source
 * group (a rotated set) oldest first. Nothing here knows a format: it asks the descriptor.
 */
export function openTraceFile(sources: ByteSource[], options: OpenOptions = {}): OpenedTrace {
  if (sources.length === 0) throw new FormatError('open/no-file', 'no file given');
  const formats = options.formats ?? FORMATS;
  const first = sources[0];
  const format = findFormat(first.read(0, SNIFF_BYTES), first.name, first.size, formats);
  if (format === null) {
    throw new FormatError('open/unknown-format', `not ${expectedFormats(formats)}`, 0);
  }
  const bytes = sources.reduce((sum, source) => sum + source.size, 0);
  const name = sources.length > 1 ? `${first.name} (+${sources.length - 1})` : first.name;
  const { partReader, onPreview } = options;
  const previewDue = previewSchedule();
  const opened = format.open(sources, {
    onRows: onPreview
      ? (rows, samples) => {
          if (previewDue(rows.length))
            onPreview(buildPreviewTrace({ name, bytes, format }, rows, samples));
        }
      : undefined,
    onProgress: options.onProgress,
    shouldCancel: options.shouldCancel,
    onStepEnd: options.onStepEnd,
    joinByBootstrapRoom: options.joinByBootstrapRoom,
    partReader:
      partReader && format.readPart
        ? { start: (path, from) => partReader.start(format.id, path, from) }
        : undefined,
  });
  options.onStepEnd?.('rows');
  const store = buildStore({ rows: opened.rows });
  const stats = buildStoreStats(store);
  options.onStepEnd?.('store');
  const perf = buildPerfView(format.capabilities.perfSeries, opened.rows, opened.perf);
  options.onStepEnd?.('perf');
  const summary: OpenedTrace['summary'] = {
    name,
    format: format.id,
    formatLabels: format.labels,
    capabilities: format.capabilities,
    bytes,
    samples: opened.sampleCount,
    untracedSamples: opened.untracedSamples,
    skippedLines: opened.skippedLines ?? NO_SKIPPED_LINES,
    rolloutId: opened.rolloutId ?? null,
    notices: opened.notices,
    ...stats,
    ...opened.counts,
  };
  if (opened.bootstrapRooms !== undefined) {
    summary.bootstrapRooms = opened.bootstrapRooms;
    summary.joinedByBootstrapRoom = opened.joinedByBootstrapRoom ?? false;
  }
  // one file of a source group (opened by path): offer the whole group
  if (format.groupSources && sources.length === 1 && first.path !== undefined) {
    const group = format.groupSources(first.path);
    if (group.length > 1) summary.rotatedSet = group;
  }
  return { summary, format, store, perf, samples: opened.samples, rows: opened.rows };
}
