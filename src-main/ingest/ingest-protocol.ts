import type { RunFileDigest } from '../core/model/run';
import type { SqlTableData } from '../core/sql/sql-table';
import type {
  CompareResult,
  ExportFormat,
  ExportedFile,
  FileError,
  FileSummary,
  LazyValues,
  SampleFieldPath,
  GroupPage,
  GroupQuery,
  RowFacts,
  RowOrder,
  RowQuery,
  RowView,
  RowWindow,
  SampleDetails,
  SpanDetails,
} from '../core/api/trace-api';
import type { PerfDigest, PerfDistributionId } from '../core/model/perf';
import type { FileDetails, FileSnapshot } from '../core/api/report-snapshot';
import type { CompareDigest, CompareSide } from '../core/compare/compare-traces';
import type { OpenProgressReport, OpenedTrace } from '../core/open/open-trace-file';

/**
 * One file, or one rotated OTLP set (oldest first), as the worker receives it. A file's bytes
 * (dropped or uploaded: no path) lie in shared memory (`sharedBytes`): the worker reads the very
 * bytes the service keeps for a reopen, where a plain buffer was copied into it (a file held
 * twice for as long as it is open).
 */
export type IngestSource =
  | { kind: 'path'; path: string }
  | { kind: 'bytes'; name: string; bytes: Uint8Array<SharedArrayBuffer> };

/** `bytes` in shared memory: as they are when they already are, else copied there once. */
export function sharedBytes(bytes: Uint8Array): Uint8Array<SharedArrayBuffer> {
  if (bytes.buffer instanceof SharedArrayBuffer) return bytes as Uint8Array<SharedArrayBuffer>;
  const shared = new Uint8Array(new SharedArrayBuffer(bytes.byteLength));
  shared.set(bytes);
  return shared;
}

export interface IngestRequest {
  sources: IngestSource[];
  joinByBootstrapRoom?: boolean;
}

/**
 * Main to a worker started before its file was known (ingest-client.ts, `prestartIngestWorker`):
 * its first message, the file it opens.
 */
export interface OpenRequestMessage {
  type: 'open';
  request: IngestRequest;
}

/**
 * Worker to main: progress and previews (the rows read so far can be asked for), then the
 * summary once the file is open (or why it is not).
 */
export type IngestMessage =
  | { type: 'progress'; progress: OpenProgressReport }
  | { type: 'preview'; summary: OpenedTrace['summary'] }
  | { type: 'done'; summary: OpenedTrace['summary'] }
  | { type: 'failed'; error: Omit<FileError, 'fileName'> }
  | {
      type: 'answer';
      id: number;
      result?: unknown;
      error?: { notFound: boolean; message: string };
    };

/** Main to worker, once the file is open: one call on the file it holds. */
export interface FileCallMessage {
  type: 'call';
  id: number;
  method: FileCallName;
  args: unknown[];
}

/** Everything asked of one open file; answered in the worker that holds it (file-calls.ts). */
export interface FileCalls {
  queryRows(query: RowQuery): RowOrder;
  getRowFacts(): RowFacts;
  getRows(rowIds: number[], window?: RowWindow | null): RowView[];
  getSpan(rowId: number, index: number): SpanDetails;
  getSample(rowId: number): SampleDetails;
  getLazyValues(rowId: number, field: SampleFieldPath): LazyValues;
  /** the perf view's digest (core/open/perf-digest.ts); the whole PerfView stays here */
  getPerf(): PerfDigest;
  getPerfBinRows(seriesKey: string, binIndex: number): number[];
  getPerfValues(distribution: PerfDistributionId): Float64Array | null;
  getPerfGroups(query: GroupQuery): GroupPage;
  exportTrace(format: ExportFormat): ExportedFile;
  compareDigest(): CompareDigest;
  /**
   * the same digest, answered once the worker has warmed it after opening (ingest-session.ts):
   * what main asks ahead of a compare without making the file's first queries wait for it
   */
  compareDigestWhenWarm(): CompareDigest;
  /**
   * this file (as main lists it) compared with another whose digest main was given: a compare
   * made ahead in this worker, once warm, so that main's first compare is a kept answer
   */
  compareWith(self: Omit<CompareSide, 'digest'>, other: CompareSide): CompareResult;
  runDigest(): RunFileDigest;
  /** the file's SQL tables (core/sql), as file number `file` on a clock starting at `originSec` */
  sqlTables(file: number, originSec: number, path: string | null): SqlTableData[];
  /** this file's part of a shared report (core/report), as main lists it (`summary`) */
  reportSnapshot(
    summary: FileSummary,
    withContent: boolean,
  ): { file: FileSnapshot; details: FileDetails };
}

export type FileCallName = keyof FileCalls;

/**
 * Main to a host thread of the pool (ingest-pool.ts), which holds many small files: a file's
 * open, a call on it, its end (closed or cancelled). `session` names the file on that thread.
 */
export type HostInMessage =
  | { type: 'open'; session: number; request: IngestRequest }
  | { type: 'call'; session: number; call: FileCallMessage }
  | { type: 'end'; session: number };

/** A host thread to main: what one of its files' sessions said. */
export interface HostOutMessage {
  session: number;
  message: IngestMessage;
}
