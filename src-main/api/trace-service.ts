import { randomUUID } from 'node:crypto';
import { basename, dirname, relative } from 'node:path';
import type {
  CompareResult,
  FileError,
  FileSummary,
  LazyValues,
  SampleFieldPath,
  OpenProgress,
  OpenRequest,
  OpenResult,
  GroupPage,
  GroupQuery,
  PerfDigest,
  PerfDistributionId,
  SharedBins,
  RowFacts,
  RowOrder,
  RowQuery,
  RowView,
  RowWindow,
  SampleDetails,
  SpanDetails,
  TraceApi,
  HostEvent,
  ExportFormat,
  ExportedFile,
  ReportRequest,
  TrendsRequest,
  RunRequest,
  RunResult,
  StartPage,
  SqlAnswer,
  SqlCell,
  SqlRequest,
} from '../core/api/trace-api';
import { openEnded } from '../core/api/trace-api';
import { findRunFiles } from '../ingest/run-files';
import { sniffPath } from '../ingest/sniff-path';
import { FORMATS, holdsRolloutSamples } from '../core/formats/registry';
import type { TrendFileProgress, TrendsResult } from '../core/model/trend';
import type { RunFileDigest } from '../core/model/run';
import type { TrendsOptions } from '../trends/compute-trends';
import { assertComparable, compareTraces } from '../core/compare/compare-traces';
import { buildSharedBins } from '../core/open/perf-digest';
import { sharedBytes, type IngestSource } from '../ingest/ingest-protocol';
import { IngestFailure, type IngestJob, type OpenedFile } from '../ingest/ingest-connection';
import { NotFoundError } from '../core/api/call-errors';
import type { IngestRunner } from '../ingest/ingest-pool';
import { sourceSize } from '../ingest/source-size';
import { groupPaths, MAX_FOLDER_TABS, type PathGroups } from '../ingest/group-files';
import { notFoundError, type PathPolicy } from './path-policy';
import { RunOpening, type RunOpenSteps } from './run-opening';
import { holdsRunFigures, withRunFigures } from './trends-run-figures';
import { RunStates } from './run-states';
import { CompareDigests } from './compare-digests';
import { unknownUploadError, type UploadedFiles } from './uploaded-files';
import { SqlScopes } from './sql-scopes';
import { shareReport } from '../report/share-report';
import type { SqlHost } from '../sql/sql-protocol';

/** Reads a run's rollout dumps for the trends view (trends/compute-trends.ts in the app). */
export type TrendsRunner = (paths: string[], options: TrendsOptions) => Promise<TrendsResult>;

/**
 * Said when a dropped folder holds only rollout dumps: they open as trends (a host event), so
 * there is no file tab to answer with. Not an error a user sees.
 */
export const FOLDER_AS_TRENDS = { code: 'open/as-trends', message: 'opened as trends' } as const;

/** Said when a dropped folder is a run: it opens as one run tab (a host event). */
export const FOLDER_AS_RUN = { code: 'open/as-run', message: 'opened as a run' } as const;

export type { IngestRunner } from '../ingest/ingest-pool';

interface OpenFile {
  summary: FileSummary;
  /** the file's worker, which holds its rows and store and answers calls on them */
  opened: OpenedFile;
  sources: IngestSource[];
}

/**
 * The one implementation of TraceApi. Transports (IPC, HTTP) only validate arguments and
 * call it; it owns the open files and hands out views of their frozen stores.
 */
export class TraceService implements TraceApi {
  private readonly files = new Map<string, OpenFile>();
  private readonly compareDigests = new CompareDigests();
  private readonly jobs = new Map<string, IngestJob>();
  /** files listed while still being read (previews), by file id: close cancels their reading */
  private readonly streaming = new Map<string, IngestJob>();
  private readonly listeners = new Set<(progress: OpenProgress) => void>();
  /** each open still going on: its latest progress (openingNow) */
  private readonly openingLatest = new Map<string, OpenProgress>();
  private readonly hostListeners = new Set<(event: HostEvent) => void>();
  private initial: Awaited<ReturnType<TraceApi['initialFiles']>> = {
    fileIds: [],
    compare: false,
    errors: [],
    trendFolders: [],
    runs: [],
  };
  private readonly trendJobs = new Map<string, AbortController>();
  /** each dump's latest progress of each openTrends call still reading, by openId (trendsNow) */
  private readonly trendsLatest = new Map<string, Map<string, TrendFileProgress>>();
  /** runs still opening files, by openId: cancelOpen stops them */
  private readonly runs = new Map<string, RunOpening>();
  /** each run's latest state, kept after it is complete (runNow) */
  private readonly runStates = new RunStates();
  private initialReady: Promise<void> = Promise.resolve();

  constructor(
    private readonly runIngest: IngestRunner,
    private readonly trends: { run: TrendsRunner; cacheDir: string | null } | null = null,
    /** which paths may open by name (serve mode); every path when null (the desktop app) */
    private readonly pathPolicy: PathPolicy | null = null,
    /** bytes received ahead of their open (serve mode's uploads); none in the desktop app */
    private readonly uploads: UploadedFiles | null = null,
    /** a new SQL engine of its own (sql/sql-client.ts: a worker); none: runSql says so */
    makeSqlHost: (() => SqlHost) | null = null,
  ) {
    this.sql =
      makeSqlHost === null ? null : new SqlScopes(makeSqlHost, (fileId) => this.file(fileId));
  }

  private readonly sql: SqlScopes | null;
  private start: { demoPath: string | null; recent: () => string[] } = {
    demoPath: null,
    recent: () => [],
  };

  /** What the start page offers beside the formats: the host's recent files and its demo. */
  setStartPage(start: { demoPath: string | null; recent: () => string[] }): void {
    this.start = start;
  }

  async startPage(): Promise<StartPage> {
    return {
      formats: FORMATS.map(({ labels }) => ({ name: labels.name, expected: labels.expected })),
      recent: this.start.recent(),
      demoPath: this.start.demoPath,
    };
  }

  /** Opens the files named at start-up (command line, demo rollout); the renderer asks later. */
  openInitial(
    paths: PathGroups,
    compare: boolean,
  ): Promise<{ fileIds: string[]; errors: FileError[] }> {
    const opening = this.openGroups(paths);
    this.initialReady = opening.then(({ fileIds, errors }) => {
      const { trendFolders, runs } = paths;
      this.initial = {
        fileIds,
        compare: compare && fileIds.length >= 2,
        errors,
        trendFolders,
        runs,
      };
    });
    return opening;
  }

  /** Each group of paths (one file, or one rotated set) opened in turn; empty folders said. */
  private async openGroups(paths: PathGroups): Promise<{ fileIds: string[]; errors: FileError[] }> {
    const fileIds: string[] = [];
    const errors: FileError[] = paths.emptyFolders.map(emptyFolderError);
    // a folder's many files are not compared ahead, each with the one before (a pair, as
    // `A B --compare` names, is): 20,000 tiny files spent most of their open on it
    const compareAhead = paths.groups.length <= 2;
    for (const group of paths.groups) {
      const sources = group.map((path) => ({ kind: 'path' as const, path }));
      const result = await this.openFile({ openId: randomUUID(), sources }, true, compareAhead);
      if (result.ok) fileIds.push(result.file.fileId);
      else errors.push(result.error);
    }
    return { fileIds, errors };
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
  async openLater(paths: PathGroups, compare: boolean): Promise<void> {
    const { fileIds, errors } = await this.openGroups(paths);
    const { trendFolders, runs } = paths;
    this.emitHostEvent({
      type: 'files-opened',
      fileIds,
      compare,
      errors,
      trendFolders,
      runs,
    });
  }

  onProgress(listener: (progress: OpenProgress) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  async openingNow(): Promise<OpenProgress[]> {
    return [...this.openingLatest.values()];
  }

  /** Keeps each open's latest progress, and the rows it listed last, until it ends. */
  private noteOpening(progress: OpenProgress): void {
    const { openId } = progress;
    if (openEnded(progress)) {
      this.openingLatest.delete(openId);
      return;
    }
    const file = progress.file ?? this.openingLatest.get(openId)?.file;
    this.openingLatest.set(openId, file ? { ...progress, file } : progress);
  }

  open(request: OpenRequest): Promise<OpenResult> {
    return this.openFile(request, true);
  }

  /**
   * Opens one file; `listPreviews`: list it from its first rows on, while it is still read;
   * `compareAhead`: compare it ahead with the latest open file of its format.
   */
  private async openFile(
    request: OpenRequest,
    listPreviews: boolean,
    compareAhead = listPreviews,
  ): Promise<OpenResult> {
    // A dropped or named folder opens every trace it holds: the first here, the rest as tabs
    // of their own (a host event tells the renderer).
    const sources: IngestSource[] = [];
    for (const source of request.sources) {
      if (source.kind === 'bytes') {
        sources.push({
          kind: 'bytes',
          name: source.name,
          bytes: sharedBytes(Buffer.from(source.bytesBase64, 'base64')),
        });
        continue;
      }
      if (source.kind === 'upload') {
        // taken here, so the bytes belong to this open from now on (and go when it fails)
        const upload = this.uploads?.take(source.uploadId) ?? null;
        if (!upload) return { ok: false, error: unknownUploadError() };
        sources.push({ kind: 'bytes', name: upload.name, bytes: upload.bytes });
        continue;
      }
      // a path outside what serve mode was started with answers as a missing one does
      if (this.pathPolicy && !this.pathPolicy.allows(source.path))
        return { ok: false, error: notFoundError(source.path) };
      const paths = this.allowedOnly(
        groupPaths([source.path], {
          trendFolders: this.trends !== null,
          runs: true,
          maxTraces: MAX_FOLDER_TABS,
        }),
      );
      if (paths.emptyFolders.length > 0) {
        return { ok: false, error: emptyFolderError(paths.emptyFolders[0]) };
      }
      const [group, ...others] = paths.groups;
      if (others.length > 0 || paths.trendFolders.length > 0 || paths.runs.length > 0) {
        void this.openLater({ ...paths, groups: others }, false);
      }
      // a folder of rollout dumps and nothing else: its trends are all there is to open
      if (!group && paths.runs.length > 0) {
        return { ok: false, error: { ...FOLDER_AS_RUN, fileName: basename(source.path) } };
      }
      if (!group) {
        return { ok: false, error: { ...FOLDER_AS_TRENDS, fileName: basename(source.path) } };
      }
      sources.push(...group.map((path): IngestSource => ({ kind: 'path', path })));
    }
    const first = request.sources[0];
    const name = first.kind === 'path' ? basename(first.path) : sourceName(sources[0]);
    const path = first.kind === 'path' ? first.path : null;
    return this.openSources(request, sources, name, path, listPreviews, compareAhead);
  }

  /** Opens sources already resolved (paths allowed, bytes at hand) on one worker. */
  private async openSources(
    request: Omit<OpenRequest, 'sources'>,
    sources: IngestSource[],
    name: string,
    path: string | null,
    listPreviews: boolean,
    compareAhead = listPreviews,
  ): Promise<OpenResult> {
    const bytesTotal = sources.reduce((sum, source) => sum + sourceSize(source), 0);
    // an open's events end with its end (done, failed, cancelled): one said after it would
    // list the open again, for good
    let ended = false;
    const emit = (progress: Omit<OpenProgress, 'openId' | 'name'>) => {
      if (ended) return;
      const event: OpenProgress = { openId: request.openId, name, ...progress };
      ended = openEnded(event);
      this.noteOpening(event);
      for (const listener of this.listeners) listener(event);
    };
    // said at once, so that a file named at start-up shows its progress and Cancel right away
    emit({ bytesRead: 0, bytesTotal, samplesRead: 0, phase: 'reading' });
    // the rows read so far are listed (and can be asked for) before the whole file is read:
    // one file id from the first preview on
    let fileId: string | null = null;
    let bytesRead = 0;
    // the format's word for its count, said again with each preview
    let counted: string | undefined;
    const job = this.runIngest(
      { sources, joinByBootstrapRoom: request.joinByBootstrapRoom },
      (progress) => {
        bytesRead = progress.bytesRead;
        counted = progress.counted;
        emit({ ...progress, bytesTotal: Math.max(bytesTotal, progress.bytesRead) });
      },
      listPreviews
        ? (preview, opened) => {
            fileId ??= randomUUID();
            const file: FileSummary = { ...preview, fileId, path };
            this.files.set(fileId, { summary: file, opened, sources });
            this.streaming.set(fileId, job);
            emit({
              bytesRead,
              bytesTotal,
              samplesRead: preview.samples,
              phase: 'reading',
              file,
              ...(counted === undefined ? {} : { counted }),
            });
          }
        : undefined,
    );
    this.jobs.set(request.openId, job);
    try {
      const opened = await job.result;
      fileId ??= randomUUID();
      this.streaming.delete(fileId);
      const summary: FileSummary = {
        ...opened.summary,
        fileId,
        path,
      };
      this.files.set(fileId, { summary, opened, sources });
      emit({
        bytesRead: summary.bytes,
        bytesTotal: summary.bytes,
        samplesRead: summary.samples,
        phase: 'done',
      });
      // a file a user opened (not a run's member): compared, most likely, with the last one
      if (compareAhead) this.askCompareDigestsAhead(fileId);
      return { ok: true, file: summary };
    } catch (error) {
      const detail =
        error instanceof IngestFailure
          ? error.detail
          : {
              code: 'open/internal',
              message: error instanceof Error ? error.message : String(error),
            };
      if (fileId !== null) {
        this.files.delete(fileId);
        this.streaming.delete(fileId);
      }
      const cancelled = detail.code === 'open/cancelled';
      emit({ bytesRead: 0, bytesTotal, samplesRead: 0, phase: cancelled ? 'cancelled' : 'failed' });
      return { ok: false, error: { ...detail, fileName: name } };
    } finally {
      this.jobs.delete(request.openId);
    }
  }

  /** A folder's groups without the files the policy refuses (links that lead outside it). */
  private allowedOnly(paths: PathGroups): PathGroups {
    const policy = this.pathPolicy;
    if (!policy) return paths;
    const groups = paths.groups
      .map((group) => group.filter((path) => policy.allows(path)))
      .filter((group) => group.length > 0);
    return { ...paths, groups, trendFolders: paths.trendFolders.filter((p) => policy.allows(p)) };
  }

  async reopen(fileId: string, options: { joinByBootstrapRoom: boolean }): Promise<OpenResult> {
    const file = this.file(fileId);
    // the same sources again: paths as they were allowed, dropped bytes as kept (never encoded)
    const result = await this.openSources(
      { openId: randomUUID(), joinByBootstrapRoom: options.joinByBootstrapRoom },
      file.sources,
      sourceName(file.sources[0]),
      file.sources[0].kind === 'path' ? file.sources[0].path : null,
      true,
    );
    if (result.ok) await this.close(fileId);
    return result;
  }

  async cancelOpen(openId: string): Promise<void> {
    this.jobs.get(openId)?.cancel();
    this.runs.get(openId)?.cancel((fileOpenId) => this.jobs.get(fileOpenId)?.cancel());
    this.trendJobs.get(openId)?.abort();
  }

  async openTrends(request: TrendsRequest): Promise<TrendsResult> {
    if (!this.trends) throw new Error('trends are not available here');
    const refused = this.pathPolicy
      ? request.paths.find((path) => !this.pathPolicy!.allows(path))
      : undefined;
    if (refused !== undefined) throw new NotFoundError(`no such file: ${basename(refused)}`);
    const controller = new AbortController();
    this.trendJobs.set(request.openId, controller);
    const latest = new Map<string, TrendFileProgress>();
    this.trendsLatest.set(request.openId, latest);
    const onFile = (progress: TrendFileProgress) => {
      latest.set(progress.path, progress);
      this.emitHostEvent({ type: 'trends-progress', openId: request.openId, progress });
    };
    try {
      // a run with train dumps or request metrics: their figures per rollout, never cached;
      // each dump digested as its point is read, so that the joins do not read it again
      const digests = new Map<string, RunFileDigest>();
      const dumps = await this.trends.run(request.paths, {
        cacheDir: this.trends.cacheDir,
        signal: controller.signal,
        onFile,
        ...(holdsRunFigures(request.paths)
          ? { onDigest: (path: string, digest: RunFileDigest) => digests.set(path, digest) }
          : {}),
      });
      return await withRunFigures(dumps, request.paths, this.runIngest, {
        signal: controller.signal,
        onFile,
        digests,
      });
    } finally {
      // the answer holds every point: nothing more to catch up on
      this.trendJobs.delete(request.openId);
      this.trendsLatest.delete(request.openId);
    }
  }

  async trendsNow(openId: string): Promise<TrendFileProgress[] | null> {
    const latest = this.trendsLatest.get(openId);
    return latest ? [...latest.values()] : null;
  }

  async openRun(request: RunRequest): Promise<RunResult> {
    // as openTrends: a path outside what serve mode was started with answers as a missing one
    const refused = this.pathPolicy
      ? request.paths.find((path) => !this.pathPolicy!.allows(path))
      : undefined;
    if (refused !== undefined) throw new NotFoundError(`no such file: ${basename(refused)}`);
    const found = findRunFiles(request.paths);
    const groups = found.groups.map((paths) => ({
      paths,
      bytes: paths.reduce((n, path) => n + sourceSize({ kind: 'path', path }), 0),
      holdsSamples: holdsSamples(paths[0]),
    }));
    const steps: RunOpenSteps = {
      // a run's files are listed when they are in, not from their first preview: the run tab
      // shows them, and a preview would open a file tab of its own beside it
      openFile: (openId, paths) =>
        this.openFile({ openId, sources: paths.map((path) => ({ kind: 'path', path })) }, false),
      digestOf: (fileId) => this.file(fileId).opened.call('runDigest'),
    };
    const run = new RunOpening(request, found, groups, steps, (result) => {
      this.runStates.note(request.openId, result);
      this.emitHostEvent({ type: 'run-updated', openId: request.openId, result });
    });
    this.runs.set(request.openId, run);
    void run.allFiles
      // the final state (a run without files, or cancelled before any was read, has no update)
      .then((result) => this.runStates.note(request.openId, result))
      .finally(() => this.runs.delete(request.openId));
    return request.answer === 'first-file' ? run.firstAnswer : run.allFiles;
  }

  async runNow(openId: string): Promise<RunResult | null> {
    return this.runStates.get(openId);
  }

  async close(fileId: string): Promise<void> {
    // Ending the worker frees the store and the samples; dropping the entry frees any bytes.
    // A file still being read stops being read (quietly: a cancel, not a failure).
    this.streaming.get(fileId)?.cancel();
    this.streaming.delete(fileId);
    this.files.get(fileId)?.opened.close();
    this.files.delete(fileId);
    this.compareDigests.forget(fileId);
    this.runStates.forgetFile(fileId);
    this.sql?.forgetFile(fileId);
  }

  async listFiles(): Promise<FileSummary[]> {
    return [...this.files.values()].map((file) => file.summary);
  }

  async queryRows(fileId: string, query: RowQuery): Promise<RowOrder> {
    return this.file(fileId).opened.call('queryRows', query);
  }

  async getRowFacts(fileId: string): Promise<RowFacts> {
    return this.file(fileId).opened.call('getRowFacts');
  }

  async getRows(fileId: string, rowIds: number[], window?: RowWindow | null): Promise<RowView[]> {
    return this.file(fileId).opened.call('getRows', rowIds, window ?? null);
  }

  async getSpan(fileId: string, rowId: number, index: number): Promise<SpanDetails> {
    return this.file(fileId).opened.call('getSpan', rowId, index);
  }

  async getSample(fileId: string, rowId: number): Promise<SampleDetails> {
    return this.file(fileId).opened.call('getSample', rowId);
  }

  async getLazyValues(fileId: string, rowId: number, field: SampleFieldPath): Promise<LazyValues> {
    return this.file(fileId).opened.call('getLazyValues', rowId, field);
  }

  async getPerf(fileId: string): Promise<PerfDigest> {
    return this.file(fileId).opened.call('getPerf');
  }

  async getPerfBinRows(fileId: string, seriesKey: string, binIndex: number): Promise<number[]> {
    return this.file(fileId).opened.call('getPerfBinRows', seriesKey, binIndex);
  }

  async getPerfGroups(fileId: string, query: GroupQuery): Promise<GroupPage> {
    return this.file(fileId).opened.call('getPerfGroups', query);
  }

  async comparePerfDistribution(
    fileIdA: string,
    fileIdB: string,
    distribution: PerfDistributionId,
  ): Promise<SharedBins> {
    const a = this.file(fileIdA);
    const b = this.file(fileIdB);
    // the values cross from each worker as bytes; only the bins cross to the renderer
    const [valuesA, valuesB] = await Promise.all([
      a.opened.call('getPerfValues', distribution),
      b.opened.call('getPerfValues', distribution),
    ]);
    return buildSharedBins(valuesA ?? [], valuesB ?? []);
  }

  async compare(fileIdA: string, fileIdB: string): Promise<CompareResult> {
    const a = this.file(fileIdA);
    const b = this.file(fileIdB);
    // say so before asking either worker for anything
    assertComparable(a.summary, b.summary);
    // rollouts of a run with a train dump or request metrics compare with those figures too:
    // made each time (the run may have grown since), from the kept digests
    const extraA = this.runStates.compareExtra(a.summary);
    const extraB = this.runStates.compareExtra(b.summary);
    const plain = extraA === null && extraB === null;
    const kept = plain ? await this.compareDigests.result(fileIdA, fileIdB) : null;
    if (kept !== null) return kept;
    const [digestA, digestB] = await Promise.all([
      this.compareDigests.of(fileIdA, a.opened),
      this.compareDigests.of(fileIdB, b.opened),
    ]);
    const result = compareTraces(
      { fileId: fileIdA, summary: a.summary, digest: digestA, extra: extraA },
      { fileId: fileIdB, summary: b.summary, digest: digestB, extra: extraB },
    );
    // (a file closed meanwhile is not kept)
    if (plain && this.files.has(fileIdA) && this.files.has(fileIdB))
      this.compareDigests.keepResult(fileIdA, fileIdB, result);
    return result;
  }

  /**
   * A file just opened compared ahead with the latest other open file of its format (the pair
   * a user compares): the workers do it once idle (api/compare-digests.ts).
   */
  private askCompareDigestsAhead(fileId: string): void {
    const file = this.files.get(fileId);
    if (!file) return;
    let partner: [string, OpenFile] | null = null;
    for (const entry of this.files) {
      const [id, other] = entry;
      if (id !== fileId && !this.streaming.has(id) && other.summary.format === file.summary.format)
        partner = entry;
    }
    if (partner === null) return;
    const [partnerId, partnerFile] = partner;
    this.compareDigests.compareAhead(
      { fileId: partnerId, summary: partnerFile.summary, file: partnerFile.opened },
      { fileId, summary: file.summary, file: file.opened },
    );
  }

  async exportTrace(fileId: string, format: ExportFormat): Promise<ExportedFile> {
    return this.file(fileId).opened.call('exportTrace', format);
  }

  async exportReport(request: ReportRequest): Promise<ExportedFile> {
    return shareReport(request, {
      fileSnapshot: (fileId, withContent, path) => {
        const { opened, summary } = this.file(fileId);
        // a report names its files; where they were on this disk stays here
        return opened.call('reportSnapshot', { ...summary, path }, withContent);
      },
      run: (runId) => this.reportRun(runId),
      compare: (a, b) => this.compare(a, b),
      distribution: (a, b, id) => this.comparePerfDistribution(a, b, id),
    });
  }

  /**
   * A run tab's files for its report, ordered and named as the CLI's report of the folder has
   * them: from the folder's parent (`run/comm_timeline/...`), the run's last state saying which.
   */
  private async reportRun(runId: string) {
    const state = this.runStates.get(runId);
    if (state === null) throw new NotFoundError(`no run ${runId}`);
    // in the folder's order, as the CLI lists them (the run's state has them as they came in)
    const order = new Map(findRunFiles(state.paths).groups.map((group, i) => [group[0], i]));
    const at = (path: string | null) => order.get(path ?? '') ?? order.size;
    const fileIds = [...state.files]
      .sort((a, b) => at(a.file.path) - at(b.file.path))
      .map(({ file }) => file.fileId);
    const parent = dirname(state.paths[0] ?? '');
    const paths = fileIds.map((id) => {
      const { path, name } = this.file(id).summary;
      return path === null ? name : relative(parent, path);
    });
    const digests = await Promise.all(fileIds.map((id) => this.file(id).opened.call('runDigest')));
    return { name: state.name, skipped: state.skipped, paths, fileIds, digests };
  }

  async runSql(request: SqlRequest): Promise<SqlAnswer> {
    if (this.sql === null) {
      const message = 'SQL is not available here';
      return { queryId: request.queryId, error: { message, position: null, interrupted: false } };
    }
    return this.sql.run(request);
  }

  async getSqlRows(queryId: string, offset: number, count: number): Promise<SqlCell[][]> {
    if (this.sql === null) throw new NotFoundError(`no query ${queryId}`);
    return this.sql.rows(queryId, offset, count);
  }

  async cancelSql(queryId: string): Promise<void> {
    this.sql?.cancel(queryId);
  }

  private file(fileId: string): OpenFile {
    const file = this.files.get(fileId);
    if (!file) throw new NotFoundError(`no open file with id ${fileId}`);
    return file;
  }
}

function emptyFolderError(path: string): FileError {
  return {
    code: 'io/empty-folder',
    message: 'the folder holds no trace file',
    fileName: basename(path),
  };
}

/** Whether a run's file is of a format with rollout samples (its head sniffed again: cheap). */
function holdsSamples(path: string): boolean {
  const format = sniffPath(path);
  return typeof format === 'string' && holdsRolloutSamples(format);
}

function sourceName(source: IngestSource): string {
  return source.kind === 'path' ? basename(source.path) : source.name;
}
