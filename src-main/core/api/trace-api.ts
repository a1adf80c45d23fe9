/**
 * THE contract between the renderer and main. Electron IPC (ipc/trace-router.ts +
 * preload) and serve-mode HTTP (serve/serve-mode.ts) are thin adapters around one
 * implementation (api/trace-service.ts), so every end-to-end test in Chromium exercises what
 * Electron runs. Only plain JSON-able data crosses it.
 */

import type { SampleFieldPath } from '../model/sample-field-path';
import type { TrendFileProgress, TrendsResult } from '../model/trend';
import type { RunFileRole, RunJoins } from '../model/run';

import type { AttrValue, Attrs, PdPhase } from '../model/row';
import type { FormatCapabilities, FormatLabels, SkippedLines } from '../model/file-format';
import type { GpuProfile } from '../model/gpu-profile';
import type {
  BinnedValues,
  Distribution,
  DurationDigest,
  PerfDigest,
  PerfDistributionId,
  PerfSeriesDigest,
  PerfSummary,
  PerfView,
  RunningDigest,
  RunningSummary,
  SharedBins,
  ValueBin,
  ValueStats,
} from '../model/perf';
import type { GroupFigures } from '../model/rollout-figures';
import type { FigureCombine } from '../model/group-extra-figures';
import type { GroupFilter, GroupSort, SortKey } from './sort-keys';

export type { FormatCapabilities, FormatLabels, SkippedLines, Distribution, PerfSummary, PerfView };
export type {
  BinnedValues,
  DurationDigest,
  GroupFigures,
  PerfDigest,
  PerfDistributionId,
  PerfSeriesDigest,
  RunningDigest,
  RunningSummary,
  SharedBins,
  ValueBin,
  ValueStats,
};

export type OpenSource =
  | { kind: 'path'; path: string }
  /** dropped bytes without a path (Electron drop from a virtual source) */
  | { kind: 'bytes'; name: string; bytesBase64: string }
  /**
   * bytes the host received before the call, under an id it gave (serve mode's `POST
   * /api/upload`: a picked file's raw bytes, named there); taken by the first open that names
   * them. A host that takes no uploads (the desktop app) answers `open/unknown-upload`.
   */
  | { kind: 'upload'; uploadId: string };

export interface OpenRequest {
  /** one file, or several that form one rotated OTLP set (oldest first) */
  sources: OpenSource[];
  /** chosen by the caller so that progress events and cancel can name it before open returns */
  openId: string;
  /** OTLP: join traces that share a bootstrap_room into one row (PD halves without a router) */
  joinByBootstrapRoom?: boolean;
}

export interface OpenProgress {
  openId: string;
  name: string;
  bytesRead: number;
  bytesTotal: number;
  samplesRead: number;
  phase: 'reading' | 'building' | 'done' | 'failed' | 'cancelled';
  /** what `samplesRead` counts in the format's words (OpenProgressReport.counted), when known */
  counted?: string;
  /**
   * the file as read so far (`streaming: true`), when its first rows can be shown before the
   * whole file is read; later progress brings more rows, `open` the whole file (same fileId)
   */
  file?: FileSummary;
}

/** Whether an open is over (opened, failed or cancelled): nothing more comes of it. */
export function openEnded(progress: Pick<OpenProgress, 'phase'>): boolean {
  return progress.phase === 'done' || progress.phase === 'failed' || progress.phase === 'cancelled';
}

export interface FileError {
  /** e.g. 'zip/eocd-not-found', 'pickle/truncated', 'io/not-found', 'open/cancelled' */
  code: string;
  message: string;
  /** byte offset in the file where the problem was found, when known */
  offset?: number;
  fileName: string;
}

export interface FileSummary {
  fileId: string;
  name: string;
  path: string | null;
  /**
   * the id of the file's format in core/formats/registry.ts, for people and scripts
   * (`summary --json`); the app asks `capabilities` and shows `formatLabels`, never branches on it
   */
  format: string;
  formatLabels: FormatLabels;
  capabilities: FormatCapabilities;
  bytes: number;
  /** what formatLabels.samples names: samples in a dump, traces in a trace file */
  samples: number;
  untracedSamples: number;
  rows: number;
  spans: number;
  events: number;
  links: number;
  skippedLines: SkippedLines;
  rolloutId: AttrValue;
  /** epoch seconds of the earliest and latest item; null when there are no rows */
  globalStartSec: number | null;
  globalEndSec: number | null;
  /** distinct values for filters */
  statuses: string[];
  sources: string[];
  attempts: number[];
  /** every item (spans and instant events) by name */
  spanNames: { name: string; count: number }[];
  /**
   * the spans, each drawn as a bar, by what a timeline legend lists them under: a category when
   * the span has one (a GPU kernel's kind), else its name; categories first, most first. A view
   * that fetches rows as they are scrolled to counts its legend from these, not from its rows.
   */
  barCounts: { name: string; count: number; category?: true }[];
  notices: string[];
  /** opened by path (capabilities.sourceGroups): the whole set this file belongs to, oldest first, when larger */
  rotatedSet?: string[];
  /** capabilities.gpuProfile: each rank's figures (HTA's breakdown, overlap, idle gaps) */
  gpuProfile?: GpuProfile;
  /** distinct bootstrap_room values (PD halves that can be joined), and whether they are */
  bootstrapRooms?: number;
  joinedByBootstrapRoom?: boolean;
  /**
   * (ours) this rollout's own window (seconds from the file start; the timeline's default) and
   * the idle time between the attempts of samples resumed from an earlier rollout
   */
  rolloutWindow?: {
    ownStartSec: number;
    ownEndSec: number;
    label: string;
    idleGaps: { rowId: number; startSec: number; endSec: number; startRolloutId: number }[];
  };
  /**
   * present while the file is still being read: the rows read so far (counts, filters and
   * queries cover those); perf, export and compare wait for the whole file
   */
  streaming?: true;
  /**
   * how long opening took: reading the file, and everything until it could be shown; the share
   * of the file a second thread read, when it was read in parts; each step's seconds, in order
   * (where the time after the last byte went)
   */
  openTimings?: {
    readSec: number;
    openSec: number;
    helperShare?: number;
    steps?: { step: string; seconds: number }[];
  };
}

export type OpenResult = { ok: true; file: FileSummary } | { ok: false; error: FileError };

export type { SortKey, GroupSort, GroupFilter };

/** A page of the groups view: its order, which groups, and which of them. */
export interface GroupQuery {
  sort: GroupSort;
  filter: GroupFilter;
  offset: number;
  /** at most GROUP_PAGE_MAX */
  limit: number;
  /** the sort's order reversed (its column's header clicked again) */
  reverse?: boolean;
  /** groups ordered by this figure instead of `sort`: one the renderer holds (a run's) */
  rowFigure?: GroupRowFigure;
}

/**
 * A figure of samples the worker does not hold (a run's train dump and request metrics), sent
 * as each row's part (rowFigureParts): a group's figure combines its rows' parts (combineParts),
 * largest first (smallest with `reverse`), groups without any part last.
 */
export interface GroupRowFigure {
  combine: FigureCombine;
  /** rows that have a part, with its value and weight at the same index */
  rowIds: number[];
  values: number[];
  weights: number[];
}

/** The most rows a GroupRowFigure holds: every sample of a large rollout. */
export const GROUP_ROW_FIGURE_MAX = 1_000_000;

/** The most groups one getPerfGroups answers: a screen or a few, never all 12.5k of 100k samples. */
export const GROUP_PAGE_MAX = 1000;

export interface GroupPage {
  /** the groups at [offset, offset + limit) of the sorted, filtered list */
  groups: GroupFigures[];
  offset: number;
  /** groups that pass the filter */
  shown: number;
  /** every group of the rollout, and those with zero reward variance */
  total: number;
  zeroVariance: number;
}

export interface RowFilter {
  text?: string;
  statuses?: string[];
  sources?: string[];
  attempts?: number[];
  spanName?: string;
  rewardMin?: number;
  rewardMax?: number;
  /** only these row ids (e.g. from a histogram bin) */
  rowIds?: number[];
}

export interface RowQuery {
  sort: SortKey;
  descending?: boolean;
  filter?: RowFilter;
}

/**
 * A row order: the row ids after filter and sort, as a typed array (100k rows cross IPC as a
 * structured clone and HTTP as their bytes, see typed-json.ts). What each row is does not change with
 * the sort, so it comes once per store from `getRowFacts`, not with every order.
 */
export interface RowOrder {
  /** row ids in display order, after filter and sort */
  rowIds: Int32Array;
  /** every row of the file (or of the rows read so far) */
  total: number;
  /** the store this order was taken from: its facts are `getRowFacts` with the same version */
  storeVersion: number;
}

/**
 * Per row, in the store's order (not a display order): its id, lanes, start and end (seconds
 * from the file start). Asked once per store version (a file read while shown gets a new store
 * with each preview), then joined with each order's ids in the renderer.
 */
export interface RowFacts {
  storeVersion: number;
  /** per row its id; null when row i's id is i (a dump's rows, most files': 0.4 MB less at 100k) */
  rowIds: Int32Array | null;
  laneCounts: Int32Array;
  startSec: Float64Array;
  endSec: Float64Array;
}

/** What the timeline draws for one item; times are seconds from the file's global start. */
export interface ItemView {
  /** index of the item within its row: the key for details */
  index: number;
  kind: 'span' | 'event' | 'orphan';
  name: string;
  startSec: number;
  /** drawn end (display end for ongoing spans); equals startSec for points */
  endSec: number;
  lane: number;
  depth: number;
  ongoing: boolean;
  clippedBy?: string;
  pd?: { role: 'prefill' | 'decode'; phases: PdPhase[] };
  error?: boolean;
  laneLabel?: string;
  /** indexes (in this row) of the spans this span links to; links leaving the row are in details */
  links?: number[];
  /** short label text for inside the bar, e.g. "512 tok" */
  hint?: string;
  /** what the bar is coloured and listed by instead of its name (a GPU kernel's kind) */
  category?: string;
  parentIndex: number;
}

export interface RowView {
  rowId: number;
  sampleIndex: AttrValue;
  groupIndex: AttrValue;
  source: string | null;
  status: string | null;
  reward: AttrValue;
  attempt: AttrValue;
  traceId: string | null;
  label: AttrValue;
  startSec: number;
  endSec: number;
  laneCount: number;
  openSpanCount: number;
  orphanCount: number;
  /** in index order; every item of the row, unless `detail` says only a window's were sent */
  items: ItemView[];
  /**
   * a row of more items than a timeline draws (a GPU rank's million kernels): `items` are only
   * those that draw the time from `startSec` to `endSec` at `resolutionSec` a pixel (each item
   * at least a pixel wide, one per lane, depth and pixel of the narrower ones, and what names
   * each lane), of the row's `itemCount`; ask again with a window to see another part
   */
  detail?: { startSec: number; endSec: number; resolutionSec: number; itemCount: number };
}

/**
 * The part of a timeline a row is drawn in (seconds from the file's start) and its width in
 * pixels: a big row's items are chosen for it (RowView.detail).
 */
export interface RowWindow {
  startSec: number;
  endSec: number;
  pixels: number;
}

export interface SpanDetails {
  rowId: number;
  index: number;
  kind: ItemView['kind'];
  name: string;
  state: string;
  startSec: number;
  endSec: number | null;
  displayEndSec: number;
  durationSec: number;
  spanId: string | null;
  parentSpanId: string | null;
  parentSpanName: string | null;
  attempt: AttrValue;
  startAttrs: Attrs;
  endAttrs: Attrs;
  pd?: { role: 'prefill' | 'decode'; phases: PdPhase[]; parentDurationSec: number };
  otel?: Attrs;
  links?: { traceId: string; spanId: string; dangling: boolean }[];
}

/** A sample's fields as display-ready JSON; token-sized lists as {length, lazy: true}. */
export interface SampleDetails {
  rowId: number;
  fields: Attrs;
}

export { fieldName, type SampleFieldPath } from '../model/sample-field-path';

export interface LazyValues {
  field: SampleFieldPath;
  length: number;
  values: number[];
}

/** One compared figure: values, unit, change, and whether the change is beyond noise. */
export interface CompareFigure {
  key: string;
  a: number | null;
  b: number | null;
  unit: string;
  /** (b - a) / |a|; null when a side is missing or a is 0 */
  relative: number | null;
  /** better / worse (changed for neutral figures) only beyond noise (CompareResult.noiseRule) */
  verdict: 'better' | 'worse' | 'changed' | 'noise' | 'none';
  /** A, B and Δ as the table prints them, in one unit chosen for the row (µs, ms, s, min for times) */
  shown: { unit: string; a: string; b: string; delta: string };
  /** position in the figures table (stats and perf together, core/compare/figure-order.ts) */
  rank: number;
  /** under the "small changes" fold: noise, or no change */
  small: boolean;
  /** what the figure really reflects, when that is not what its name says */
  note?: string;
  /**
   * the rows behind the figure on each side, when it counts samples (statuses, resumed, ...);
   * typed: a status of 100k samples is 100k ids, their bytes over HTTP
   */
  aRowIds?: Int32Array;
  bRowIds?: Int32Array;
}

/**
 * The samples of A and B that are the same sample, as columns (pair k is aRowIds[k] with
 * bRowIds[k], in A's order): 100k pairs cross as bytes, not as 100k objects.
 */
export interface MatchedPairs {
  aRowIds: Int32Array;
  bRowIds: Int32Array;
  /** pair positions, biggest |B's duration - A's| first (ties in A's order): the table's order */
  byDurationChange: Int32Array;
}

/** A piece of the answer's text, with the rows behind it when it names samples. */
export interface AnswerPart {
  text: string;
  side?: 'a' | 'b';
  rowIds?: number[];
}

export interface CompareResult {
  a: string;
  b: string;
  /** the question answered first, in one to three plain sentences, each a list of parts */
  answer: AnswerPart[][];
  perf: CompareFigure[];
  spanTotals: { name: string; aSec: number; bSec: number; aCount: number; bCount: number }[];
  /** what kept each rollout open, by kind of work, over its own window and its whole span */
  wallTime: {
    category: string;
    aOwnSec: number;
    bOwnSec: number;
    aWholeSec: number;
    bWholeSec: number;
    /** the rows whose time it is: the bounding sample, or the resumed samples before the window */
    aRowIds: number[];
    bRowIds: number[];
  }[];
  windows: { a: { own: string; whole: string }; b: { own: string; whole: string } };
  matched: MatchedPairs;
  /** index when every index-matched pair has the same prompt, else group and prompt */
  matchedBy: 'index' | 'group and prompt';
  /** rows of A (of B) no pair holds, in file order */
  onlyA: Int32Array;
  onlyB: Int32Array;
  stats: CompareFigure[];
  noiseRule: string;
}

/** Commands from the native menu (Electron) that the renderer carries out. */
export type MenuCommand =
  | 'open'
  | 'compare'
  | 'export-perfetto'
  | 'export-csv'
  | 'share-report'
  | 'close-tab'
  | 'zoom-in'
  | 'zoom-out'
  | 'zoom-fit'
  | 'theme-light'
  | 'theme-dark'
  | 'theme-system'
  | 'toggle-details'
  | 'toggle-perf'
  | 'copy-picture'
  | 'shortcuts'
  | 'about';

/** What main tells the renderer without being asked: files it opened, menu commands. */
export type HostEvent =
  | {
      type: 'files-opened';
      fileIds: string[];
      compare: boolean;
      errors: FileError[];
      /** named folders of rollout dumps, to open as trends (one point per dump) */
      trendFolders?: string[];
      /** named paths that are a run (a folder, or files together), each to open as one run tab */
      runs?: string[][];
    }
  | { type: 'command'; command: MenuCommand }
  | { type: 'trends-progress'; openId: string; progress: TrendFileProgress }
  /** a run's state after one more of its files came in (or failed): the joins over those so far */
  | { type: 'run-updated'; openId: string; result: RunResult };

/** The rollout dumps of a run (folders and files), read for the trends view. */
export interface TrendsRequest {
  openId: string;
  paths: string[];
}

/** A run: folders and files of one RL run, opened together and joined (TRACE_MODEL section 9). */
export interface RunRequest {
  openId: string;
  paths: string[];
  /**
   * when openRun answers: 'first-file' as soon as one file is in (or failed), the rest coming as
   * 'run-updated' host events until `complete`; 'all-files' (the default) once every file is in
   */
  answer?: 'first-file' | 'all-files';
}

/** A file of a run still being opened (or waiting for a worker). */
export interface RunPendingFile {
  /** the openId of its own open: its progress events and cancelOpen name it */
  openId: string;
  name: string;
  path: string;
  bytes: number;
}

export interface RunResult {
  name: string;
  paths: string[];
  /** each trace of the run, open like any file (queryRows, getRows, getSpan answer on it) */
  files: { file: FileSummary; role: RunFileRole }[];
  /** traces of the run that could not be opened */
  errors: FileError[];
  /** files that are not traces, with the reason */
  skipped: { path: string; reason: string }[];
  /** file numbers in the joins are positions in `files`; files only ever append, in arrival order */
  joins: RunJoins;
  /** files still being opened */
  pending: RunPendingFile[];
  /** every file is in or failed (or the run was cancelled): the joins are final */
  complete: boolean;
  /**
   * whether the paths are a run (a trainer timeline, or traces of several kinds); files dropped
   * together that are not one (two dumps) are still opened, for the renderer to show as tabs
   */
  isRun: boolean;
}

export type { RunJoins, RunFileRole };

/** What the start page offers (TraceApi.startPage). */
export interface StartPage {
  /** each registered format, in the registry's order: its name and what a file of it is */
  formats: { name: string; expected: string }[];
  /** files and folders opened lately, newest first (the desktop app's; serve mode: none) */
  recent: string[];
  /** the bundled demo rollout, to open by path; null where the build has none */
  demoPath: string | null;
}

export interface TraceApi {
  open(request: OpenRequest): Promise<OpenResult>;
  cancelOpen(openId: string): Promise<void>;
  close(fileId: string): Promise<void>;
  listFiles(): Promise<FileSummary[]>;
  /** files named on the command line, opened at start-up */
  initialFiles(): Promise<{
    fileIds: string[];
    compare: boolean;
    errors: FileError[];
    /** named folders of rollout dumps: the renderer opens each as trends */
    trendFolders: string[];
    /** named paths that are a run (a folder, or files together): the renderer opens each with openRun */
    runs: string[][];
  }>;
  /** what the start page lists: the formats that open, recent files, the demo */
  startPage(): Promise<StartPage>;
  /** one point per rollout dump, each file read on a worker (cached); cancelOpen(openId) stops */
  openTrends(request: TrendsRequest): Promise<TrendsResult>;
  /**
   * a run's files (folders searched by content), each opened on its worker and joined as they come
   * in; cancelOpen(request.openId) stops the files not yet in
   */
  openRun(request: RunRequest): Promise<RunResult>;
  /**
   * the latest state of run `openId` (openRun's): what its 'run-updated' events said last, for a
   * page whose event stream broke meanwhile; null when main knows no such run (never opened, or
   * its files closed)
   */
  runNow(openId: string): Promise<RunResult | null>;
  /**
   * each dump's latest progress of trends `openId` while openTrends reads them, for a page whose
   * event stream broke meanwhile; null once the call has answered (or for no such call)
   */
  trendsNow(openId: string): Promise<TrendFileProgress[] | null>;
  onProgress(listener: (progress: OpenProgress) => void): () => void;
  /**
   * the opens still going on, each as its latest progress (with its latest rows so far, `file`):
   * what a renderer that loads or reloads after opening began has not seen
   */
  openingNow(): Promise<OpenProgress[]>;
  onHostEvent(listener: (event: HostEvent) => void): () => void;

  queryRows(fileId: string, query: RowQuery): Promise<RowOrder>;
  /** every row's id, lanes, start and end, of the store the file has now (see RowFacts) */
  getRowFacts(fileId: string): Promise<RowFacts>;
  /** `window`: what the rows are drawn for (a big row sends only what draws it); none: whole rows */
  getRows(fileId: string, rowIds: number[], window?: RowWindow | null): Promise<RowView[]>;
  getSpan(fileId: string, rowId: number, index: number): Promise<SpanDetails>;
  getSample(fileId: string, rowId: number): Promise<SampleDetails>;
  getLazyValues(fileId: string, rowId: number, field: SampleFieldPath): Promise<LazyValues>;
  /**
   * the perf view as a digest: per distribution its count, stats and bins, the running curve
   * reduced to chart resolution (the whole PerfView stays in the file's worker)
   */
  getPerf(fileId: string): Promise<PerfDigest>;
  /** the distinct rows whose values fall in bin `binIndex` of series `seriesKey` (a bin click) */
  getPerfBinRows(fileId: string, seriesKey: string, binIndex: number): Promise<number[]>;
  /** a page of the rollout's GRPO groups (the groups view), sorted and filtered in the worker */
  getPerfGroups(fileId: string, query: GroupQuery): Promise<GroupPage>;
  /** one distribution of two files on shared bins (compare's overlay); empty bins when neither has it */
  comparePerfDistribution(
    fileIdA: string,
    fileIdB: string,
    distribution: PerfDistributionId,
  ): Promise<SharedBins>;
  compare(fileIdA: string, fileIdB: string): Promise<CompareResult>;
  /** opens the same file again with other options (replacing it), e.g. bootstrap_room joining */
  reopen(fileId: string, options: { joinByBootstrapRoom: boolean }): Promise<OpenResult>;
  /** a file's rows as a Perfetto trace (gzipped JSON) or CSV, for the renderer to save */
  exportTrace(fileId: string, format: ExportFormat): Promise<ExportedFile>;
  /**
   * a shared report (issue 47): one HTML file, offline, the app frozen with these files' data
   * (two with `compare`: A and B); prompts, responses, labels and tool arguments only with
   * `withContent`
   */
  exportReport(request: ReportRequest): Promise<ExportedFile>;
  /**
   * SQL over the tables of docs/sql.md for these open files (a file, a compare pair, a run's
   * files), in an engine of their own (a worker, made on the first query); answers the first
   * page of rows, the engine's error as a value
   */
  runSql(request: SqlRequest): Promise<SqlAnswer>;
  /** more rows of query `queryId` (its result is kept, bounded, until another replaces it) */
  getSqlRows(queryId: string, offset: number, count: number): Promise<SqlCell[][]>;
  /** stops query `queryId` if it still runs: it answers an interrupted error */
  cancelSql(queryId: string): Promise<void>;
}

/** One query of the Query view: its id (for cancel and paging), the files, the text. */
export interface SqlRequest {
  queryId: string;
  fileIds: string[];
  sql: string;
}

/** A value of a result: JSON's kinds (a 64-bit integer past 2^53 as its digits). */
export type SqlCell = number | string | boolean | null;

export interface SqlResultColumn {
  name: string;
  /** the engine's type: INTEGER, DOUBLE, VARCHAR, BOOLEAN, BIGINT, ... */
  type: string;
}

export type SqlAnswer =
  | {
      queryId: string;
      columns: SqlResultColumn[];
      /** rows kept (at most SQL_RESULT_MAX_ROWS); `truncated` when the query had more */
      rowCount: number;
      truncated: boolean;
      /** the first rows (at most SQL_PAGE_MAX_ROWS); getSqlRows for the rest */
      rows: SqlCell[][];
      /** the query's time in the engine, and the tables' load time on a first query */
      queryMs: number;
      loadMs: number;
    }
  | {
      queryId: string;
      error: { message: string; position: number | null; interrupted: boolean };
    };

/** rows a query keeps for paging: more are counted as truncated */
export const SQL_RESULT_MAX_ROWS = 200_000;
/** rows one answer carries */
export const SQL_PAGE_MAX_ROWS = 2_000;

/** What a file's rows export as: a Perfetto trace or CSV (core/export/export-trace.ts). */
export const EXPORT_FORMATS = ['perfetto', 'csv'] as const;

export type ExportFormat = (typeof EXPORT_FORMATS)[number];

export function isExportFormat(value: unknown): value is ExportFormat {
  return (EXPORT_FORMATS as readonly unknown[]).includes(value);
}

export interface ReportRequest {
  /** one file, or A and B of a compare; none for a run */
  fileIds: string[];
  compare: boolean;
  withContent: boolean;
  /**
   * a run tab's id (the openId of its openRun): the report of the run, its files and run tab,
   * as `trace-explorer report RUN_FOLDER` makes it
   */
  runId?: string;
}

export interface ExportedFile {
  fileName: string;
  mime: string;
  bytesBase64: string;
}

/** Names of the request/response methods, for transports that route by name. */
export const TRACE_API_METHODS = [
  'open',
  'cancelOpen',
  'close',
  'listFiles',
  'initialFiles',
  'startPage',
  'openingNow',
  'openTrends',
  'openRun',
  'runNow',
  'trendsNow',
  'queryRows',
  'getRowFacts',
  'getRows',
  'getSpan',
  'getSample',
  'getLazyValues',
  'getPerf',
  'getPerfBinRows',
  'getPerfGroups',
  'comparePerfDistribution',
  'compare',
  'exportTrace',
  'exportReport',
  'reopen',
  'runSql',
  'getSqlRows',
  'cancelSql',
] as const;

export type TraceApiMethod = (typeof TRACE_API_METHODS)[number];

/** The methods that answer with a promise: all but the two event subscriptions. */
type RequestMethod = Exclude<keyof TraceApi, 'onProgress' | 'onHostEvent'>;
/** Compile-time check: TRACE_API_METHODS names exactly TraceApi's request methods. */
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const METHODS_MATCH_TRACE_API: Same<TraceApiMethod, RequestMethod> = true;
void METHODS_MATCH_TRACE_API;
