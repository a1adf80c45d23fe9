import { randomUUID } from 'node:crypto';
import { basename } from 'node:path';
import type {
  CompareResult,
  FileError,
  FileSummary,
  LazyValues,
  OpenProgress,
  OpenRequest,
  OpenResult,
  PerfView,
  RowOrder,
  RowQuery,
  RowView,
  SampleDetails,
  SpanDetails,
  TraceApi,
  HostEvent,
  ExportFormat,
  ExportedFile,
} from '../core/api/trace-api';
import { buildPerfettoTrace, writePerfettoJson } from '../core/export/perfetto-export';
import { buildRowsCsv } from '../core/export/csv-export';
import type { OpenedTrace } from '../core/open/open-trace-file';
import { sampleToDetails } from '../core/open/sample-details';
import { queryRows } from '../core/store/query-rows';
import { getRowViews, getSpanDetails, rowOrderOf } from '../core/store/row-views';
import { readLazyValues } from '../ingest/lazy-values';
import { compareTraces } from '../core/compare/compare-traces';
import type { IngestRequest, IngestSource } from '../ingest/ingest-protocol';
import { IngestFailure, type IngestJob } from '../ingest/ingest-client';
import type { OpenProgressReport } from '../core/open/open-trace-file';
import { NotFoundError } from './call-errors';
import { groupRotatedSets } from '../ingest/group-files';
import { findRotatedSet } from '../core/formats/otlp/rotated-set';

export type IngestRunner = (
  request: IngestRequest,
  onProgress: (progress: OpenProgressReport) => void,
) => IngestJob;

interface OpenFile {
  summary: FileSummary;
  trace: OpenedTrace;
  sources: IngestSource[];
}

/**
 * The one implementation of TraceApi. Transports (IPC, HTTP) only validate arguments and
 * call it; it owns the open files and hands out views of their frozen stores.
 */
export class TraceService implements TraceApi {
  private readonly files = new Map<string, OpenFile>();
  private readonly jobs = new Map<string, IngestJob>();
  private readonly listeners = new Set<(progress: OpenProgress) => void>();
  private readonly hostListeners = new Set<(event: HostEvent) => void>();
  private initial: { fileIds: string[]; compare: boolean; errors: FileError[] } = {
    fileIds: [],
    compare: false,
    errors: [],
  };
  private initialReady: Promise<void> = Promise.resolve();

  constructor(private readonly runIngest: IngestRunner) {}

  /** Opens the files named at start-up (command line, demo rollout); the renderer asks later. */
  openInitial(groups: string[][], compare: boolean): Promise<void> {
    this.initialReady = (async () => {
      const fileIds: string[] = [];
      const errors: FileError[] = [];
      for (const paths of groups) {
        const result = await this.open({
          openId: randomUUID(),
          sources: paths.map((path) => ({ kind: 'path', path })),
        });
        if (result.ok) fileIds.push(result.file.fileId);
        else errors.push(result.error);
      }
      this.initial = { fileIds, compare: compare && fileIds.length >= 2, errors };
    })();
    return this.initialReady;
  }

  async initialFiles() {
    await this.initialReady;
    return this.initial;
  }

  onHostEvent(listener: (event: HostEvent) => void): () => void {
    this.hostListeners.add(listener);
    return () => this.hostListeners.delete(listener);
  }

  /** Tells the renderer something it did not ask for: files opened by main, menu commands. */
  emitHostEvent(event: HostEvent): void {
    for (const listener of this.hostListeners) listener(event);
  }

  /** Opens files while the app runs (menu, second instance, macOS open-file) and says so. */
  async openLater(groups: string[][], compare: boolean): Promise<void> {
    const fileIds: string[] = [];
    const errors: FileError[] = [];
    for (const paths of groups) {
      const result = await this.open({
        openId: randomUUID(),
        sources: paths.map((path) => ({ kind: 'path', path })),
      });
      if (result.ok) fileIds.push(result.file.fileId);
      else errors.push(result.error);
    }
    this.emitHostEvent({ type: 'files-opened', fileIds, compare, errors });
  }

  onProgress(listener: (progress: OpenProgress) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  async open(request: OpenRequest): Promise<OpenResult> {
    // a dropped or named folder opens the rotated set it holds
    const sources: IngestSource[] = request.sources.flatMap((source): IngestSource[] =>
      source.kind === 'path'
        ? groupRotatedSets([source.path])[0].map((path) => ({ kind: 'path', path }))
        : [{ kind: 'bytes', name: source.name, bytes: Buffer.from(source.bytesBase64, 'base64') }],
    );
    const first = request.sources[0];
    const name = first.kind === 'path' ? basename(first.path) : first.name;
    const bytesTotal = sources.reduce(
      (sum, source) => sum + (source.kind === 'bytes' ? source.bytes.byteLength : 0),
      0,
    );
    const emit = (progress: Omit<OpenProgress, 'openId' | 'name'>) => {
      for (const listener of this.listeners)
        listener({ openId: request.openId, name, ...progress });
    };
    const job = this.runIngest(
      { sources, joinByBootstrapRoom: request.joinByBootstrapRoom },
      (progress) => emit({ ...progress, bytesTotal: Math.max(bytesTotal, progress.bytesRead) }),
    );
    this.jobs.set(request.openId, job);
    try {
      const trace = await job.result;
      const fileId = randomUUID();
      const summary: FileSummary = {
        ...trace.summary,
        fileId,
        path: first.kind === 'path' ? first.path : null,
      };
      // one file of a rotated set: offer the whole set
      if (summary.format === 'otlp' && sources.length === 1 && sources[0].kind === 'path') {
        const set = findRotatedSet(sources[0].path);
        if (set.length > 1) summary.rotatedSet = set;
      }
      this.files.set(fileId, { summary, trace, sources });
      emit({
        bytesRead: summary.bytes,
        bytesTotal: summary.bytes,
        samplesRead: summary.samples,
        phase: 'done',
      });
      return { ok: true, file: summary };
    } catch (error) {
      const detail =
        error instanceof IngestFailure
          ? error.detail
          : {
              code: 'open/internal',
              message: error instanceof Error ? error.message : String(error),
            };
      const cancelled = detail.code === 'open/cancelled';
      emit({ bytesRead: 0, bytesTotal, samplesRead: 0, phase: cancelled ? 'cancelled' : 'failed' });
      return { ok: false, error: { ...detail, fileName: name } };
    } finally {
      this.jobs.delete(request.openId);
    }
  }

  async reopen(fileId: string, options: { joinByBootstrapRoom: boolean }): Promise<OpenResult> {
    const file = this.file(fileId);
    const result = await this.open({
      openId: randomUUID(),
      joinByBootstrapRoom: options.joinByBootstrapRoom,
      sources: file.sources.map((s) =>
        s.kind === 'path'
          ? s
          : { kind: 'bytes', name: s.name, bytesBase64: Buffer.from(s.bytes).toString('base64') },
      ),
    });
    if (result.ok) this.files.delete(fileId);
    return result;
  }

  async cancelOpen(openId: string): Promise<void> {
    this.jobs.get(openId)?.cancel();
  }

  async close(fileId: string): Promise<void> {
    // Dropping the only reference frees the store, the samples and any dropped bytes.
    this.files.delete(fileId);
  }

  async listFiles(): Promise<FileSummary[]> {
    return [...this.files.values()].map((file) => file.summary);
  }

  async queryRows(fileId: string, query: RowQuery): Promise<RowOrder> {
    const store = this.file(fileId).trace.store;
    return rowOrderOf(store, queryRows(store, query));
  }

  async getRows(fileId: string, rowIds: number[]): Promise<RowView[]> {
    return getRowViews(this.file(fileId).trace.store, rowIds);
  }

  async getSpan(fileId: string, rowId: number, index: number): Promise<SpanDetails> {
    return getSpanDetails(this.file(fileId).trace.store, rowId, index);
  }

  async getSample(fileId: string, rowId: number): Promise<SampleDetails> {
    const sample = this.sampleOf(fileId, rowId);
    return { rowId, fields: sample === undefined ? {} : sampleToDetails(sample) };
  }

  async getLazyValues(fileId: string, rowId: number, field: string): Promise<LazyValues> {
    const file = this.file(fileId);
    const sample = this.sampleOf(fileId, rowId);
    return readLazyValues(file.sources[0], sample, field);
  }

  async getPerf(fileId: string): Promise<PerfView> {
    return this.file(fileId).trace.perf;
  }

  async compare(fileIdA: string, fileIdB: string): Promise<CompareResult> {
    const a = this.file(fileIdA);
    const b = this.file(fileIdB);
    return compareTraces(
      { fileId: fileIdA, summary: a.summary, trace: a.trace },
      { fileId: fileIdB, summary: b.summary, trace: b.trace },
    );
  }

  async exportTrace(fileId: string, format: ExportFormat): Promise<ExportedFile> {
    const { summary, trace } = this.file(fileId);
    const stem = summary.name.replace(/\.(pt|pth|jsonl|json)$/i, '');
    if (format === 'csv') {
      const csv = buildRowsCsv(trace.rows);
      return {
        fileName: `${stem}.rows.csv`,
        mime: 'text/csv',
        bytesBase64: Buffer.from(csv).toString('base64'),
      };
    }
    const perfetto = buildPerfettoTrace([
      { name: summary.name, rows: trace.rows, globalStart: summary.globalStartSec },
    ]);
    const bytes = writePerfettoJson(perfetto, true);
    return {
      fileName: `${stem}.perfetto.json.gz`,
      mime: 'application/gzip',
      bytesBase64: Buffer.from(bytes).toString('base64'),
    };
  }

  private file(fileId: string): OpenFile {
    const file = this.files.get(fileId);
    if (!file) throw new NotFoundError(`no open file with id ${fileId}`);
    return file;
  }

  private sampleOf(fileId: string, rowId: number) {
    const file = this.file(fileId);
    if (file.summary.format !== 'slime') return undefined;
    if (!Number.isInteger(rowId) || rowId < 0 || rowId >= file.trace.samples.length) {
      throw new NotFoundError(`no sample at row ${rowId}`);
    }
    return file.trace.samples[rowId];
  }
}
