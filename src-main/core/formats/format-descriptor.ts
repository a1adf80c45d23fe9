import type { ByteSource } from '../bytes/byte-source';
import type { PartHelper, PartReader } from '../bytes/part-reader';
import type { GpuProfile } from '../model/gpu-profile';
import type { FormatCapabilities, FormatLabels, SkippedLines } from '../model/file-format';
import type { PerfSummary } from '../model/perf';
import type { PyValue } from '../model/py-value';
import type { AttrValue, PackedRow, Row } from '../model/row';
import type { TraceSamples } from '../model/sample-facts';
import type { SampleFieldPath } from '../model/sample-field-path';
import type { RunRecords } from '../model/run-records';
import { capabilitiesOf, type CapabilitySpec } from './format-capabilities';

/**
 * A format: everything the explorer knows about one kind of file, in the format's own folder
 * (core/formats/<id>/descriptor.ts) and nowhere else. core/formats/registry.ts lists them;
 * opening (core/open), ingest, the service and the CLI ask the descriptor, never the id.
 * How to add one: docs/ARCHITECTURE.md, "Adding a format".
 */
export interface FormatDescriptor<Id extends string = string> {
  /** a stable key (`summary --json` prints it); kebab-case, unique in the registry */
  readonly id: Id;
  readonly labels: FormatLabels;
  readonly capabilities: FormatCapabilities;
  /**
   * Is this the format of a file whose first bytes (up to 64 KiB; all of a smaller file) are
   * `head`? Cheap, and never throws: a broken file of this format is refused by `open`.
   */
  sniff(head: Uint8Array, name: string): boolean;
  /**
   * What `sniff` is handed: 'head' (the default) the first 64 KiB; 'first-line' the head read on
   * until its first line ends (at most 4 MiB, core/formats/sniff-head.ts), for JSON lines whose
   * first record may be longer than the head (formats/json-lines/read-json-lines.ts).
   */
  readonly sniffReach?: 'head' | 'first-line';
  /**
   * What a progress report's `samplesRead` counts in each phase, in the format's words
   * ("spans", "records"), for a progress line; left out: "samples" when the format has samples,
   * else the count is not said (a line says "building rows…", never "of 0 samples").
   */
  readonly progressCounts?: { readonly reading?: string; readonly building?: string };
  /**
   * A file that no format sniffs, claimed anyway so that this format's reader can say what
   * is wrong with it (a `.pt` name: "not a torch.save file"), or opens it as empty.
   */
  claimUnsniffed?(name: string, size: number): boolean;
  /** Reads the file (or its source group, oldest first) into rows. */
  open(sources: ByteSource[], options: FormatOpenOptions): FormatOpened;
  /**
   * Source grouping: the set of files `path` belongs to (a file: [path] when alone) or holds
   * (a folder: [] when none), oldest first. A file opened alone is offered its whole set.
   */
  groupSources?(path: string): string[];
  /**
   * The file `path` is a copy of (a rotated hour kept both plain and gzipped), or null. A folder
   * that holds both opens the original once and lists the copy as skipped.
   */
  copyOf?(path: string): string | null;
  /**
   * Lazy values (capabilities.lazyValues): the numbers of a sample's field (or one nested in
   * its dicts) that were kept as a byte range, at most `limit`; `withBytes` opens the file only
   * if they must be re-read.
   */
  readLazyValues?(
    sample: PyValue,
    field: SampleFieldPath,
    withBytes: <T>(use: (bytes: ByteSource) => T) => T,
    limit: number,
  ): { length: number; values: number[] };
  /**
   * Reads bytes [from, end) of a large file on a helper thread (see PartReader): the result
   * must be structured-cloneable, with `transfer` its buffers. `open` receives it through
   * `options.partReader`. A format whose parts start where only reading can tell (a pickle's
   * items) agrees on it with the file's thread through `helper.boundary`.
   */
  readPart?(
    source: ByteSource,
    from: number,
    helper: PartHelper,
  ): { part: unknown; transfer: ArrayBuffer[] };
  /**
   * The file's rows one at a time, for work that never needs them all at once (the CLI's
   * Perfetto export): each row handed to `sink` as soon as it is built, in the order `open`
   * returns them, and let go by the format together with what it was built from. Only formats
   * that build each row from its own part of the file have it; the others are opened whole.
   */
  streamRows?(
    sources: ByteSource[],
    options: Pick<FormatOpenOptions, 'onProgress' | 'shouldCancel'>,
    sink: RowSink,
  ): void;
  /**
   * The file's rows in the cache shape its own tools write (slime's timeline cache), for
   * `trace-explorer rows`.
   */
  rowsCache?(
    source: ByteSource,
    path: string,
    generatedAtSec: number,
    options: Pick<FormatOpenOptions, 'onProgress'>,
  ): unknown;
}

export interface OpenProgressReport {
  bytesRead: number;
  samplesRead: number;
  phase: 'reading' | 'building';
  /**
   * what `samplesRead` counts (the descriptor's progressCounts), added by the open once the
   * format is known; absent: the count means nothing to say
   */
  counted?: string;
}

export type OpenStep = 'read' | 'rows' | 'store' | 'perf';

export interface FormatOpenOptions {
  onProgress?: (progress: OpenProgressReport) => void;
  shouldCancel?: () => boolean;
  /** the descriptor ends 'read' (every byte read); opening ends the later steps */
  onStepEnd?: (step: OpenStep) => void;
  /** join traces that share a bootstrap_room into one row (PD halves), where rows have them */
  joinByBootstrapRoom?: boolean;
  /** reads the end of a large file on another thread (readPart), when given */
  partReader?: PartReader;
  /**
   * Every sample will be asked for (a shared report): keep each one as read (its trace left
   * out) instead of letting it go and reading it again from the file on each ask. Such an open
   * is read by one thread: a helper's samples would be let go on its side.
   */
  keepSamples?: boolean;
  /** files from this size are read in parts (given a partReader); the format's own default else */
  splitMinBytes?: number;
  /**
   * Rows while the file is still being read (formats that can, in row order): the rows built
   * so far and the samples they come from. Called again as more arrive; each call's rows start
   * with the last call's. What `open` returns is what counts: these are a preview.
   */
  onRows?: (rows: readonly PackedRow[], samples: TraceSamples) => void;
}

/** Where streamRows puts the rows it builds. */
export interface RowSink {
  /** the next row: row index = the number of rows given before it (since the last restart) */
  row(row: Row): void;
  /**
   * The rows given so far were not the file's (its reader had to start over, e.g. a dump read
   * again keeping every value): forget them; the rows come again from the first.
   */
  restart(): void;
}

/** What a format's `open` hands to the shared steps (store, stats, perf view). */
export interface FormatOpened {
  /** items packed as each row is built (core/rows/packed-items.ts) */
  rows: PackedRow[];
  /** capabilities.samples: the file's samples by row_id, their facts kept; else NO_SAMPLES */
  samples: TraceSamples;
  /** the perf/... keys this format computes (slime's); {} for none */
  perf: PerfSummary;
  notices: string[];
  /** what labels.samples counts */
  sampleCount: number;
  untracedSamples: number;
  skippedLines?: SkippedLines;
  rolloutId?: AttrValue;
  /** counts the reader knows better than the store (spans, events and links as read) */
  counts?: { spans: number; events: number; links: number };
  /** distinct bootstrap_room values, and whether they were joined */
  bootstrapRooms?: number;
  joinedByBootstrapRoom?: boolean;
  /** capabilities.gpuProfile: the ranks' figures (HTA's breakdown and more) */
  gpuProfile?: GpuProfile;
  /** the share of the file's bytes a second thread read (readPart), when it was read in parts */
  helperShare?: number;
  /** what other files' samples join to in a run (train samples, request metrics) */
  runRecords?: RunRecords;
}

/** What a descriptor file writes: its capabilities only where they are not the defaults. */
export type FormatDefinition<Id extends string = string> = Omit<
  FormatDescriptor<Id>,
  'capabilities'
> & {
  /** what the file can answer beyond rows and spans; left out: false (format-capabilities.ts) */
  readonly capabilities?: CapabilitySpec;
};

/**
 * A descriptor from its definition: the capabilities left out filled with false, and its id
 * kept as a literal type, so the registry's id type derives from it.
 */
export function defineFormat<const Id extends string>(
  definition: FormatDefinition<Id>,
): FormatDescriptor<Id> {
  return { ...definition, capabilities: capabilitiesOf(definition.capabilities) };
}
