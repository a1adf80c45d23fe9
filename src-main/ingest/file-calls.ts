import type {
  ExportFormat,
  ExportedFile,
  LazyValues,
  PerfView,
  RowOrder,
  RowQuery,
  RowView,
  SampleDetails,
  SpanDetails,
} from '../core/api/trace-api';
import { buildPerfettoTrace, writePerfettoJson } from '../core/export/perfetto-export';
import { buildRowsCsv } from '../core/export/csv-export';
import type { OpenedTrace } from '../core/open/open-trace-file';
import { sampleToDetails } from '../core/open/sample-details';
import { queryRows } from '../core/store/query-rows';
import { getRowViews, getSpanDetails, rowOrderOf } from '../core/store/row-views';
import { compareDigest, type CompareDigest } from '../core/compare/compare-traces';
import { NotFoundError } from '../api/call-errors';
import { readLazyValues } from './lazy-values';
import type { IngestSource } from './ingest-protocol';

/** Everything asked of one open file; answered in the worker that holds it. */
export interface FileCalls {
  queryRows(query: RowQuery): RowOrder;
  getRows(rowIds: number[]): RowView[];
  getSpan(rowId: number, index: number): SpanDetails;
  getSample(rowId: number): SampleDetails;
  getLazyValues(rowId: number, field: string): LazyValues;
  getPerf(): PerfView;
  exportTrace(format: ExportFormat): ExportedFile;
  compareDigest(): CompareDigest;
}

export type FileCallName = keyof FileCalls;

export function fileCalls(trace: OpenedTrace, sources: IngestSource[]): FileCalls {
  const sampleOf = (rowId: number) => {
    if (trace.summary.format !== 'slime') return undefined;
    if (!Number.isInteger(rowId) || rowId < 0 || rowId >= trace.samples.length) {
      throw new NotFoundError(`no sample at row ${rowId}`);
    }
    return trace.samples[rowId];
  };
  return {
    queryRows: (query) => rowOrderOf(trace.store, queryRows(trace.store, query)),
    getRows: (rowIds) => getRowViews(trace.store, rowIds),
    getSpan: (rowId, index) => getSpanDetails(trace.store, rowId, index),
    getSample(rowId) {
      const sample = sampleOf(rowId);
      return { rowId, fields: sample === undefined ? {} : sampleToDetails(sample) };
    },
    getLazyValues: (rowId, field) => readLazyValues(sources[0], sampleOf(rowId), field),
    getPerf: () => trace.perf,
    exportTrace: (format) => exportTrace(trace, format),
    compareDigest: () => compareDigest(trace),
  };
}

function exportTrace(trace: OpenedTrace, format: ExportFormat): ExportedFile {
  const { summary } = trace;
  const stem = summary.name.replace(/\.(pt|pth|jsonl|json)$/i, '');
  if (format === 'csv') {
    return {
      fileName: `${stem}.rows.csv`,
      mime: 'text/csv',
      bytesBase64: Buffer.from(buildRowsCsv(trace.rows)).toString('base64'),
    };
  }
  const perfetto = buildPerfettoTrace([
    { name: summary.name, rows: trace.rows, globalStart: summary.globalStartSec },
  ]);
  return {
    fileName: `${stem}.perfetto.json.gz`,
    mime: 'application/gzip',
    bytesBase64: Buffer.from(writePerfettoJson(perfetto, true)).toString('base64'),
  };
}
