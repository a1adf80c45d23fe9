import type { ByteSource } from '../../bytes/byte-source';
import { openFileSource } from '../../bytes/file-source';
import { gunzipIfGzip } from '../../bytes/gunzip-source';
import { countOf } from '../../model/count-of';
import type { PyValue } from '../../model/py-value';
import type { TraceSamples, WithBytes } from '../../model/sample-facts';
import { defineFormat, type FormatOpened, type FormatOpenOptions } from '../format-descriptor';
import { findHourlySet, plainHourOf } from './hourly-set';
import type { PackedRow } from '../../model/row';
import { ItemPacker } from '../../rows/packed-items';
import { recordRow } from '../../rows/request-record-row';
import { PLACE_STRIDE, readRequestMetrics } from './read-request-metrics';
import { recordDetails } from './record-details';
import { sniffRequestMetrics } from './sniff-request-metrics';

/**
 * SGLang's per-request metrics log (`--export-metrics-to-file`, FileRequestMetricsExporter in
 * sglang's srt/managers/request_metrics_exporter.py): one JSON object per finished request,
 * hourly files `sglang-request-metrics-YYYYMMDD_HH.log` opened as one trace. A record a row;
 * in a run, records join samples by rid (docs/run-extra.md).
 */
export const sglangRequestMetricsFormat = defineFormat({
  id: 'sglang-request-metrics',
  labels: {
    name: 'SGLang request metrics',
    short: 'RQM',
    noun: 'request-metrics log',
    expected: 'an SGLang request-metrics log',
    samples: 'requests',
    source: 'DP rank',
    search: 'rid, finish reason, attrs',
  },
  capabilities: { samples: true, joinRecords: true, sourceGroups: true },
  progressCounts: { reading: 'records' },
  sniff: (head) => sniffRequestMetrics(head),
  open: openRequestMetrics,
  groupSources: findHourlySet,
  copyOf: plainHourOf,
});

function openRequestMetrics(sources: ByteSource[], options: FormatOpenOptions): FormatOpened {
  // each record's row is built (and packed) as it is read: its meta_info keys are let go
  // (one packer for the file: the rows share its chunks and their attrs' shapes)
  const packer = new ItemPacker();
  const rows: PackedRow[] = [];
  const read = readRequestMetrics(
    sources,
    (record, meta) => rows.push(packer.packRow(recordRow(record, meta))),
    (bytesRead, records) =>
      options.onProgress?.({ bytesRead, samplesRead: records, phase: 'reading' }),
    options.shouldCancel,
  );
  options.onStepEnd?.('read');
  const notices: string[] = [];
  if (read.skippedNotice !== null) notices.push(read.skippedNotice);
  if (read.cutOffLines > 0)
    notices.push(
      `${countOf(read.cutOffLines, 'cut-off last line')} skipped (a file still being written)`,
    );
  const setFiles = sources.map(setFile);
  const samples: TraceSamples = {
    count: read.records.length,
    facts: read.records.map(() => null),
    read: (rowId, withBytes) => readRecord(setFiles, read.places, rowId, withBytes),
  };
  return {
    rows,
    samples,
    perf: {},
    notices,
    sampleCount: read.records.length,
    untracedSamples: 0,
    skippedLines: read.skippedLines,
    rolloutId: null,
    runRecords: {
      requestMetrics: { records: read.records, skippedLines: read.skippedLines.count },
    },
  };
}

/**
 * How a file of the set is read again for details: the first as the app reopens it; a later
 * one on disk by its path (reopened, so its prompts stay on disk); a gzipped later hour by its
 * gzip file, inflated again (a day of hours kept inflated would hold gigabytes for a few
 * clicks); bytes with no file behind them (dropped on the page) are kept.
 */
function setFile(source: ByteSource, index: number): SetFile {
  // the set's first file is the one the app reopens (and inflates again when gzipped)
  if (index === 0) return { name: source.name, first: true };
  if (source.path !== undefined) return { name: source.name, path: source.path };
  if (source.gzipPath !== undefined) return { name: source.name, gzipPath: source.gzipPath };
  return { name: source.name, bytes: source };
}

type SetFile = { name: string } & (
  { first: true } | { path: string } | { gzipPath: string } | { bytes: ByteSource }
);

/** A record whole, its line read again from its file now that a user opened it. */
function readRecord(
  files: SetFile[],
  places: Float64Array,
  rowId: number,
  withBytes: WithBytes,
): PyValue | undefined {
  if (!Number.isInteger(rowId) || rowId < 0 || (rowId + 1) * PLACE_STRIDE > places.length)
    return undefined;
  const [file, at, length, lineNo] = places.subarray(
    rowId * PLACE_STRIDE,
    rowId * PLACE_STRIDE + 4,
  );
  const setFile = files[file];
  if (setFile === undefined) return undefined;
  const line = (bytes: ByteSource) => recordDetails(bytes.read(at, length), setFile.name, lineNo);
  if ('first' in setFile) return withBytes(line);
  if ('bytes' in setFile) return line(setFile.bytes);
  const reopened = openFileSource('path' in setFile ? setFile.path : setFile.gzipPath);
  try {
    return line('path' in setFile ? reopened : gunzipIfGzip(reopened));
  } finally {
    reopened.close();
  }
}
