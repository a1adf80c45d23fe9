import type { FileSummary, PerfView } from '../api/trace-api';
import type { FormatDescriptor } from '../formats/format-descriptor';
import type { TraceSamples } from '../model/sample-facts';
import type { PackedRow } from '../model/row';
import type { TraceStore } from '../store/build-store';
import type { RunRecords } from '../model/run-records';

/** Everything the explorer keeps of one open file: the frozen store and what details need. */
export interface OpenedTrace {
  summary: Omit<FileSummary, 'fileId' | 'path'>;
  /** the file's format: what ingest and the service ask (lazy values, part reading) */
  format: FormatDescriptor;
  store: TraceStore;
  perf: PerfView;
  /** the file's samples by row_id (capabilities.samples): facts kept, whole ones on read */
  samples: TraceSamples;
  /** rows in slime's model (items packed), kept for the headless commands and export */
  rows: PackedRow[];
  /** the share of the file a second thread read (FormatOpened.helperShare), for --timings */
  helperShare?: number;
  /** what other files' samples join to in a run (FormatOpened.runRecords) */
  runRecords?: RunRecords;
}

/**
 * What trend figures are computed from (openTraceFigures): the trace without its store; with
 * what a run's digest of it needs beside its rows (runDigestOfFigures), so that a run's trends
 * join a dump without opening it again.
 */
export interface TraceFigures {
  rolloutId: OpenedTrace['summary']['rolloutId'];
  rows: PackedRow[];
  samples: TraceSamples;
  perf: PerfView;
  capabilities: FileSummary['capabilities'];
  skippedLines: FileSummary['skippedLines'];
  runRecords?: RunRecords;
}
