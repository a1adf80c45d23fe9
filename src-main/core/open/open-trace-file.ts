import { unknownFormatError } from './unknown-format-error';
import { sizeWithoutInflating, type ByteSource } from '../bytes/byte-source';
import { FormatError } from '../bytes/format-error';
import type { FormatPartReader } from '../bytes/part-reader';
import type {
  FormatDescriptor,
  FormatOpened,
  OpenProgressReport,
  OpenStep,
} from '../formats/format-descriptor';
import {
  FORMATS,
  SNIFF_BYTES,
  expectedFormats,
  findFormat,
  sniffHeadAt,
  type FormatList,
  type SniffHead,
} from '../formats/registry';
import { buildStore, GrowingRowsStore } from '../store/build-store';
import { buildStoreStats } from '../store/store-stats';
import { SearchTextsWhileReading } from '../store/search-text';
import { buildPerfView } from './build-perf-view';
import { gunzipIfGzip, gunzipWhenRead } from '../bytes/gunzip-source';
import type { OpenedTrace, TraceFigures } from './opened-trace';
import { buildPreviewTrace, previewSchedule } from './preview-trace';

export type { OpenProgressReport, OpenStep, OpenedTrace, TraceFigures };

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
  /** FormatOpenOptions.keepSamples: every sample will be asked for (a shared report) */
  keepSamples?: boolean;
}

const NO_SKIPPED_LINES = { count: 0, examples: [] };

/** How far leading whitespace is skipped to find the head that formats sniff. */
const MAX_LEADING_WHITESPACE = 16 * 1024 * 1024;

/**
 * What formats sniff: the file from its first byte after leading whitespace (70 KB of blank
 * lines before a valid export made it unknown). A binary file starts with no whitespace run.
 */
function sniffHead(source: ByteSource): SniffHead {
  const head = source.read(0, SNIFF_BYTES);
  if (!isSpace(head[0])) return sniffHeadAt(source, 0);
  let at = 0;
  while (at < MAX_LEADING_WHITESPACE && at < source.size) {
    const chunk = at === 0 ? head : source.read(at, SNIFF_BYTES);
    let i = 0;
    while (i < chunk.length && isSpace(chunk[i])) i++;
    if (i < chunk.length) return sniffHeadAt(source, at + i);
    if (chunk.length === 0) break;
    at += chunk.length;
  }
  return sniffHeadAt(source, 0);
}

function isSpace(byte: number | undefined): boolean {
  return byte === 0x20 || byte === 0x0a || byte === 0x0d || byte === 0x09;
}

/** UTF-16 or UTF-32 text, by its byte-order mark or its zero bytes around ASCII. */
function textEncodingOf(head: Uint8Array): string | null {
  const [a, b, c, d] = head;
  if (a === 0xff && b === 0xfe && c === 0 && d === 0) return 'UTF-32LE';
  if (a === 0 && b === 0 && c === 0xfe && d === 0xff) return 'UTF-32BE';
  if (a === 0xff && b === 0xfe) return 'UTF-16LE';
  if (a === 0xfe && b === 0xff) return 'UTF-16BE';
  if (head.length === 4 && a > 0 && a < 0x80 && b === 0 && c > 0 && c < 0x80 && d === 0)
    return 'UTF-16LE';
  if (head.length === 4 && a === 0 && b > 0 && b < 0x80 && c === 0 && d > 0 && d < 0x80)
    return 'UTF-16BE';
  return null;
}

/** The files' format, found by sniffing the first (inflated when gzip), and the trace's name. */
export interface FoundFormat {
  /** the files as formats read them: a .gz inflated */
  sources: ByteSource[];
  first: ByteSource;
  format: FormatDescriptor;
  name: string;
  /** the files' size on disk */
  bytes: number;
}

/**
 * The first step of opening, alone: which format reads `files` (one file, or a source group
 * oldest first), or the coded error a user sees when none does.
 */
export function findTraceFormat(files: ByteSource[], formats: FormatList = FORMATS): FoundFormat {
  if (files.length === 0) throw new FormatError('open/no-file', 'no file given');
  // a .gz of any format: every step from sniffing on sees the inflated bytes. A group's files
  // are inflated when read (the first now, to sniff it), and may be let go once read: a GPU
  // profile's ranks one at a time, not all at once before the first is read
  const sources =
    files.length === 1 ? [gunzipIfGzip(files[0])] : files.map((file) => gunzipWhenRead(file));
  const first = sources[0];
  const head = sniffHead(first);
  const format = findFormat(head, first.name, first.size, formats);
  if (format === null) {
    const encoding = textEncodingOf(first.read(0, 4));
    if (encoding !== null)
      throw new FormatError(
        'open/text-encoding',
        `the file is ${encoding} text: traces are read as UTF-8 (save or convert it as UTF-8)`,
        0,
      );
    // a gzip file cut short so early that what it inflates to tells no format: say it is cut
    if (first.cutShort !== undefined)
      throw new FormatError(
        'gzip/truncated',
        `a gzip file cut short: its stream ends at byte ${first.cutShort}, and the ${first.size} bytes inflated before the cut are not enough to tell what it holds`,
        first.cutShort,
      );
    // a head shorter than a sniff reads is the whole file (from its first non-blank byte)
    throw unknownFormatError(head.bytes, head.bytes.length < SNIFF_BYTES, expectedFormats(formats));
  }
  const bytes = files.reduce((sum, file) => sum + file.size, 0);
  const name = sources.length > 1 ? `${first.name} (+${sources.length - 1})` : first.name;
  return { sources, first, format, name, bytes };
}

/** A file read by its format, before the store: what both openings below start from. */
interface ReadTrace extends FoundFormat {
  /** the named files (`sources` are the bytes the format read: inflated where gzip) */
  files: ByteSource[];
  opened: FormatOpened;
  /** search texts made while the rows were read (the app's path), else null */
  searchTexts: SearchTextsWhileReading | null;
  /** the previews' store columns (the app's path), else null */
  rowsStore: GrowingRowsStore | null;
}

/**
 * file bytes -> format (sniff, open) -> store -> stats and perf view: the one pipeline behind
 * the worker, serve mode and the headless commands. `sources` are one file, or one source
 * group (a rotated set) oldest first. Nothing here knows a format: it asks the descriptor.
 */
export function openTraceFile(files: ByteSource[], options: OpenOptions = {}): OpenedTrace {
  const read = readTraceFile(files, options);
  const { format, sources, first, name, bytes, opened, searchTexts, rowsStore } = read;
  options.onStepEnd?.('rows');
  const store = rowsStore ? rowsStore.lastStoreOf(opened.rows) : buildStore({ rows: opened.rows });
  // the texts made while the rows came; those of rows given only at the end (a helper's
  // part: half the rows at 100k samples, 0.3 s) are made after opening, a step at a time while
  // the worker is idle (warm-indexes.ts), not before every row can be shown
  if (searchTexts?.started) searchTexts.seed(store);
  const stats = buildStoreStats(store);
  options.onStepEnd?.('store');
  const perf = perfViewOf(read);
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
    notices: [...inflatedNotice(read.files, sources), ...opened.notices],
    ...stats,
    ...opened.counts,
  };
  const { own, resumed } = perf.rollout;
  if (resumed.length > 0) {
    summary.rolloutWindow = {
      ownStartSec: own.startSec,
      ownEndSec: own.endSec,
      label: own.label,
      idleGaps: resumed
        .filter((r) => r.idleSec > 0)
        .map((r) => ({
          rowId: r.rowId,
          startSec: r.earlierEndSec,
          endSec: r.resumeStartSec,
          startRolloutId: r.startRolloutId,
        })),
    };
  }
  if (opened.gpuProfile !== undefined) summary.gpuProfile = opened.gpuProfile;
  if (opened.bootstrapRooms !== undefined) {
    summary.bootstrapRooms = opened.bootstrapRooms;
    summary.joinedByBootstrapRoom = opened.joinedByBootstrapRoom ?? false;
  }
  // one file of a source group (opened by path): offer the whole group
  if (format.groupSources && sources.length === 1 && first.path !== undefined) {
    const group = format.groupSources(first.path);
    if (group.length > 1) summary.rotatedSet = group;
  }
  const trace: OpenedTrace = {
    summary,
    format,
    store,
    perf,
    samples: opened.samples,
    rows: opened.rows,
  };
  if (opened.helperShare !== undefined) trace.helperShare = opened.helperShare;
  if (opened.runRecords !== undefined) trace.runRecords = opened.runRecords;
  return trace;
}

/**
 * The first steps alone (sniff, the format's open, the perf view) for what needs a file's rows,
 * samples and perf figures but never asks rows of it (a trends point): no store, indexes or
 * search text are built. Its figures are those openTraceFile gives for the same file.
 */
export function openTraceFigures(files: ByteSource[], options: OpenOptions = {}): TraceFigures {
  const read = readTraceFile(files, options);
  const figures: TraceFigures = {
    rolloutId: read.opened.rolloutId ?? null,
    rows: read.opened.rows,
    samples: read.opened.samples,
    perf: perfViewOf(read),
    capabilities: read.format.capabilities,
    skippedLines: read.opened.skippedLines ?? NO_SKIPPED_LINES,
  };
  if (read.opened.runRecords !== undefined) figures.runRecords = read.opened.runRecords;
  return figures;
}

/** sniff -> the format's open: the rows, samples and perf keys of one file or source group. */
function readTraceFile(files: ByteSource[], options: OpenOptions): ReadTrace {
  const found = findTraceFormat(files, options.formats);
  const { sources, format, name, bytes } = found;
  const { partReader, onPreview } = options;
  const previewDue = previewSchedule();
  // where rows are shown while they are read (the app), their search texts are made then too
  const searchTexts = onPreview ? new SearchTextsWhileReading() : null;
  // the previews' columns, grown as rows arrive; the whole file's store then takes in the rest
  const rowsStore = onPreview ? new GrowingRowsStore() : null;
  const opened = format.open(sources, {
    onRows: onPreview
      ? (rows, samples) => {
          searchTexts!.extend(rows);
          if (!previewDue(rows.length)) return;
          const preview = buildPreviewTrace(
            { name, bytes, format },
            rowsStore!.storeOf(rows),
            samples,
          );
          searchTexts!.seed(preview.store);
          onPreview(preview);
        }
      : undefined,
    onProgress: progressInFileBytes(files, sources, progressCounted(format, options.onProgress)),
    shouldCancel: options.shouldCancel,
    onStepEnd: options.onStepEnd,
    joinByBootstrapRoom: options.joinByBootstrapRoom,
    keepSamples: options.keepSamples,
    partReader:
      partReader && format.readPart
        ? {
            start: (path, from) => partReader.start(format.id, path, from),
            threads: partReader.threads,
            splitMinSeconds: partReader.splitMinSeconds,
          }
        : undefined,
  });
  return { ...found, files, opened, searchTexts, rowsStore };
}

/** Each report told what its count counts, in the format's words (progressCounts). */
function progressCounted(
  format: FormatDescriptor,
  onProgress: OpenOptions['onProgress'],
): OpenOptions['onProgress'] {
  if (!onProgress) return undefined;
  const fallback = format.capabilities.samples ? 'samples' : undefined;
  const reading = format.progressCounts?.reading ?? fallback;
  const building = format.progressCounts?.building ?? fallback;
  return (progress) => {
    const counted = progress.phase === 'reading' ? reading : building;
    onProgress(counted === undefined ? progress : { ...progress, counted });
  };
}

/**
 * A format's progress counts the bytes it read (inflated, for a .gz); callers compare it with
 * the sizes of the files they named: scaled to those, a .gz's progress reaches 100% when its
 * reading ends instead of early (the trends' per-file bars, the CLI's percent).
 */
function progressInFileBytes(
  files: ByteSource[],
  sources: ByteSource[],
  onProgress: OpenOptions['onProgress'],
): OpenOptions['onProgress'] {
  if (!onProgress) return undefined;
  const named = files.reduce((sum, file) => sum + file.size, 0);
  // (stated sizes: summing sizes would inflate every file before the first is read)
  const read = sources.reduce((sum, source) => sum + sizeWithoutInflating(source), 0);
  if (named === read || read === 0) return onProgress;
  const scale = named / read;
  return (progress) =>
    onProgress({ ...progress, bytesRead: Math.round(progress.bytesRead * scale) });
}

function perfViewOf({ format, opened }: ReadTrace) {
  return buildPerfView(
    format.capabilities.perfSeries,
    opened.rows,
    opened.perf,
    opened.samples.facts,
    opened.rolloutId ?? null,
  );
}

/**
 * "gzip: 1200000 bytes inflated from 80000": where the bytes the format read came from; and
 * each gzip file cut short, by name (what the format made of its last bytes is its own notice).
 */
function inflatedNotice(files: ByteSource[], sources: ByteSource[]): string[] {
  let compressed = 0;
  let inflated = 0;
  const cut: string[] = [];
  files.forEach((file, k) => {
    if (sources[k] === file) return;
    compressed += file.size;
    // a file a helper thread read was never inflated here: its stated size
    inflated += sizeWithoutInflating(sources[k]);
    if (sources[k].cutShort !== undefined) {
      cut.push(
        `gzip/truncated: ${file.name} is cut short: its gzip stream ends at byte ${file.size}, and the ${sources[k].size} bytes inflated before the cut are read`,
      );
    }
  });
  return compressed === 0 ? [] : [`gzip: ${inflated} bytes inflated from ${compressed}`, ...cut];
}
