import type { ByteSource } from '../bytes/byte-source';
import { FormatError } from '../bytes/format-error';
import type { FileFormat, FileSummary, PerfView, SkippedLines } from '../api/trace-api';
import type { Row } from '../model/row';
import { newPyDict, type PyDict, type PyValue } from '../model/py-value';
import { isDict } from '../rows/python-values';
import { sniffFormat } from '../formats/registry';
import { readSlimeDump } from '../formats/slime/read-slime-dump';
import { readOtlp, type RangeReader } from '../formats/otlp/read-otlp';
import { buildRows } from '../rows/build-rows';
import { buildPdView } from '../rows/pd-lanes';
import { buildStore, type TraceStore } from '../store/build-store';
import { buildStoreStats } from '../store/store-stats';
import { buildPerfView } from './build-perf-view';
import { buildPerfSummary } from '../rows/perf-summary';

export interface OpenProgressReport {
  bytesRead: number;
  samplesRead: number;
  phase: 'reading' | 'building';
}

export interface OpenOptions {
  onProgress?: (progress: OpenProgressReport) => void;
  shouldCancel?: () => boolean;
  joinByBootstrapRoom?: boolean;
  /** OTLP: reads the second half of a large file on another thread */
  rangeReader?: RangeReader;
  /** called as each step ends: reading, rows, store, perf (for `summary --timings`) */
  onStepEnd?: (step: OpenStep) => void;
}

export type OpenStep = 'read' | 'rows' | 'store' | 'perf';

/** Everything the explorer keeps of one open file: the frozen store and what details need. */
export interface OpenedTrace {
  summary: Omit<FileSummary, 'fileId' | 'path'>;
  store: TraceStore;
  perf: PerfView;
  /** slime samples (heavy lists as LazyList byte ranges); empty for OTLP */
  samples: PyValue[];
  /** rows in slime's model, kept for the headless commands and export */
  rows: Row[];
}

const EMPTY_SKIPPED: SkippedLines = { count: 0, examples: [] };

/**
 * file bytes -> format reader -> rows -> store: the one pipeline behind the worker, serve
 * mode and the headless commands. `sources` are one file, or one rotated OTLP set oldest first.
 */
export function openTraceFile(sources: ByteSource[], options: OpenOptions = {}): OpenedTrace {
  if (sources.length === 0) throw new FormatError('open/no-file', 'no file given');
  const first = sources[0];
  const looksLikeDump = /\.(pt|pth)$/i.test(first.name);
  // An empty file holds no spans (a trace file that was never written to); sniffing a .pt
  // name that is not a torch file lets the dump reader say precisely what is wrong.
  const format =
    first.size === 0 && !looksLikeDump
      ? 'otlp'
      : (sniffFormat(first.read(0, 64 * 1024)) ?? (looksLikeDump ? 'slime' : null));
  if (format === null) {
    throw new FormatError(
      'open/unknown-format',
      'not a slime rollout dump (.pt) nor OpenTelemetry JSON lines',
      0,
    );
  }
  const bytes = sources.reduce((sum, source) => sum + source.size, 0);
  const name = sources.length > 1 ? `${first.name} (+${sources.length - 1})` : first.name;
  return format === 'slime'
    ? openSlime(first, name, bytes, options)
    : openOtlp(sources, name, bytes, options);
}

function openSlime(
  source: ByteSource,
  name: string,
  bytes: number,
  options: OpenOptions,
): OpenedTrace {
  const dump = readSlimeDump(source, {
    onProgress: (p) => options.onProgress?.({ ...p, phase: 'reading' }),
    shouldCancel: options.shouldCancel,
  });
  options.onStepEnd?.('read');
  options.onProgress?.({ bytesRead: bytes, samplesRead: dump.samples.length, phase: 'building' });
  const built = buildRows(dump.samples);
  const untracedSamples = built.untracedSamples;
  // slime's perf keys come from the raw trace events; after that the rows hold everything the
  // traces said, so the events are dropped before the PD view, store and perf series are built
  // (and are not kept twice)
  const perfSummary = buildPerfSummary(dump.samples);
  dump.samples.forEach((sample, i) => {
    if (isDict(sample) && 'trace' in sample) dump.samples[i] = withoutTrace(sample);
  });
  const rows = built.rows.map((row) => buildPdView(row, { giveUpRow: true }));
  built.rows.length = 0;
  options.onStepEnd?.('rows');
  const store = buildStore({ rows });
  const stats = buildStoreStats(store);
  options.onStepEnd?.('store');
  const notices: string[] = [];
  if (dump.samples.length === 0) notices.push('The dump holds no samples.');
  else if (rows.length === 0)
    notices.push(`None of the ${dump.samples.length} samples has a trace.`);
  else if (untracedSamples > 0) notices.push(`${untracedSamples} samples have no trace.`);
  const perf = buildPerfView('slime', rows, perfSummary);
  options.onStepEnd?.('perf');
  return {
    summary: {
      name,
      format: 'slime',
      bytes,
      samples: dump.samples.length,
      untracedSamples,
      skippedLines: EMPTY_SKIPPED,
      rolloutId: toJsonScalar(dump.rolloutId),
      notices,
      ...stats,
    },
    store,
    perf,
    samples: dump.samples,
    rows,
  };
}

function openOtlp(
  sources: ByteSource[],
  name: string,
  bytes: number,
  options: OpenOptions,
): OpenedTrace {
  const doc = readOtlp(sources, {
    onProgress: (p) => options.onProgress?.({ ...p, phase: 'reading' }),
    shouldCancel: options.shouldCancel,
    joinByBootstrapRoom: options.joinByBootstrapRoom,
    rangeReader: options.rangeReader,
    onRead: () => options.onStepEnd?.('read'),
  });
  options.onStepEnd?.('rows');
  options.onProgress?.({ bytesRead: bytes, samplesRead: doc.rows.length, phase: 'building' });
  const store = buildStore({ rows: doc.rows });
  const stats = buildStoreStats(store);
  options.onStepEnd?.('store');
  const notices = [...doc.notices];
  const perf = buildPerfView('otlp', doc.rows, {});
  options.onStepEnd?.('perf');
  return {
    summary: {
      name,
      format: 'otlp' satisfies FileFormat,
      bytes,
      samples: doc.traces,
      untracedSamples: 0,
      skippedLines: doc.skippedLines,
      rolloutId: null,
      notices,
      ...stats,
      spans: doc.spans,
      events: doc.events,
      links: doc.links,
      bootstrapRooms: doc.bootstrapRooms,
      joinedByBootstrapRoom: options.joinByBootstrapRoom ?? false,
    },
    store,
    perf,
    samples: [],
    rows: doc.rows,
  };
}

function toJsonScalar(value: PyValue): string | number | boolean | null {
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return value;
  if (typeof value === 'number') return value;
  if (typeof value === 'bigint') return value.toString();
  return null;
}

/**
 * A sample's fields but its trace, as a fresh dict: `delete` would turn every sample into a
 * slow dictionary object, several times its size.
 */
function withoutTrace(sample: PyDict): PyDict {
  const copy = newPyDict();
  for (const key of Object.keys(sample)) if (key !== 'trace') copy[key] = sample[key];
  return copy;
}
