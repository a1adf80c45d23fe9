import type { ExportFormat, ExportedFile } from '../core/api/trace-api';
import { exportTrace } from '../core/export/export-trace';
import type { OpenedTrace } from '../core/open/open-trace-file';
import type { ByteSource } from '../core/bytes/byte-source';
import type { WithBytes } from '../core/model/sample-facts';
import { sampleToDetails } from '../core/open/sample-details';
import { queryRows } from '../core/store/query-rows';
import { getRowViews, getSpanDetails, rowFactsOf, rowOrderOf } from '../core/store/row-views';
import { compareTraces, keptCompareDigest } from '../core/compare/compare-traces';
import { runDigest } from '../core/run/run-digest';
import { buildSqlTables } from '../core/sql/build-sql-tables';
import { NotFoundError } from '../core/api/call-errors';
import { perfBinRows, perfDigest, perfValues } from '../core/open/perf-digest';
import { groupPage } from '../core/open/group-page';
import { buildFileSnapshot } from '../core/report/build-file-snapshot';
import { readLazyValues, withSource } from './lazy-values';
import type { FileCalls, IngestSource } from './ingest-protocol';

/** The calls on one open file, answered from its store, samples and rows. */
export function fileCalls(trace: OpenedTrace, sources: IngestSource[]): FileCalls {
  // the whole sample, read again from the file's bytes when the format did not keep it
  let held: ByteSource | null = null;
  const withBytes: WithBytes = (use) => (held ? use(held) : withSource(sources[0], use));
  /** `use` with the file's bytes opened once for all its reads (a report reads every sample) */
  const holdingBytes = <T>(use: () => T): T => {
    if (!trace.summary.capabilities.samples || held) return use();
    return withSource(sources[0], (bytes) => {
      held = bytes;
      try {
        return use();
      } finally {
        held = null;
      }
    });
  };
  const sampleOf = (rowId: number) => {
    if (!trace.summary.capabilities.samples) return undefined;
    if (!Number.isInteger(rowId) || rowId < 0 || rowId >= trace.samples.count) {
      throw new NotFoundError(`no sample at row ${rowId}`);
    }
    return trace.samples.read(rowId, withBytes);
  };
  const calls: FileCalls = {
    queryRows: (query) => rowOrderOf(trace.store, queryRows(trace.store, query)),
    getRowFacts: () => rowFactsOf(trace.store),
    getRows: (rowIds, window) => getRowViews(trace.store, rowIds, window ?? null),
    getSpan: (rowId, index) => getSpanDetails(trace.store, rowId, index),
    getSample(rowId) {
      const sample = sampleOf(rowId);
      return { rowId, fields: sample === undefined ? {} : sampleToDetails(sample) };
    },
    getLazyValues: (rowId, field) =>
      readLazyValues(trace.format, sources[0], sampleOf(rowId), field),
    // made once: a step at a time by the session before it says the file is open, or on ask
    getPerf: () => perfDigest(trace.perf),
    getPerfBinRows(seriesKey, binIndex) {
      const rows = perfBinRows(trace.perf, seriesKey, binIndex);
      if (rows === null) throw new NotFoundError(`no perf series ${seriesKey}`);
      return rows;
    },
    getPerfValues: (distribution) => perfValues(trace.perf, distribution),
    // the groups of the rollout as the view shows them: one page, sorted in here
    getPerfGroups: (query) => groupPage(trace.perf.rollout.groups, query),
    exportTrace: (format) => exportFile(trace, format),
    // made once (warmed a slice at a time after opening, see ingest-session.ts): comparing
    // again is instant
    compareDigest: () => keptCompareDigest(trace),
    compareDigestWhenWarm: () => keptCompareDigest(trace),
    compareWith: (self, other) =>
      compareTraces({ ...self, digest: keptCompareDigest(trace) }, other),
    runDigest: () => runDigest(trace),
    sqlTables: (file, originSec, path) =>
      buildSqlTables({ file, name: trace.summary.name, path, originSec, trace }),
    // every answer the report's page may ask, taken from these very calls
    reportSnapshot: (summary, withContent) =>
      holdingBytes(() => buildFileSnapshot(summary, calls, withContent)),
  };
  return calls;
}

function exportFile(trace: OpenedTrace, format: ExportFormat): ExportedFile {
  const { fileName, mime, bytes } = exportTrace(trace, format);
  return { fileName, mime, bytesBase64: Buffer.from(bytes).toString('base64') };
}

/**
 * Calls on the rows read so far (a preview, see core/open/preview-trace.ts): rows, spans and
 * samples as the whole file will have them; what needs every row waits for the whole file.
 */
export function previewCalls(preview: OpenedTrace, sources: IngestSource[]): FileCalls {
  const later = (what: string) => () => {
    throw new Error(`${what} waits until the whole file is read`);
  };
  return {
    ...fileCalls(preview, sources),
    exportTrace: later('export'),
    compareDigest: later('compare'),
    compareDigestWhenWarm: later('compare'),
    compareWith: later('compare'),
    reportSnapshot: later('a report'),
    sqlTables: later('SQL'),
  };
}
