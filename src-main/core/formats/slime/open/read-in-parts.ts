import type { ByteSource } from '../../../bytes/byte-source';
import type { PartHelper, PartReader, PendingPart } from '../../../bytes/part-reader';
import type { PyValue } from '../../../model/py-value';
import { fromCloneable, toCloneable, type ClonedPyValue } from '../../../model/py-value-clone';
import type { PackedRow } from '../../../model/row';
import type { SampleFacts } from '../../../model/sample-facts';
import { revivePackedRows } from '../../../rows/packed-items';
import { TRACE_EVENT_RECORDS } from '../../../rows/trace-event-record';
import type { PerfSummaryTally } from '../../../rows/perf-summary';
import { IncrementalRows, PartGivenUp } from './incremental-rows';
import { readSlimeDump } from '../read-slime-dump';
import { SamplesInFile } from '../samples-in-file';
import { ItemStartScan } from '../../pickle/item-start-scan';
import type { PickleItemAt } from '../../pickle/pickle-replay';

/**
 * A large dump read by two threads. A pickle can only be read from its start (its memo numbers
 * what came before), but in a dump of many small samples most of the time goes to building
 * rows, not to reading the pickle: the helper walks the pickle from the start past the samples
 * without reading them (skip-item.ts), claims the first sample that starts past `from`, and
 * builds the rows of that sample and every later one, while the file's thread builds the rows
 * before it and stops there (PartBoundary: whichever reaches the sample first has it). The
 * helper's rows are packed on its side and copied here, each with the table it reads through.
 */

/** Dumps from this size may be read by two threads when a PartReader is given. */
export const SPLIT_MIN_BYTES = 64 * 1024 * 1024;

/**
 * Only a machine that runs this many threads at once reads a dump by two: the file's thread and
 * the helper then each have a core. The process's own thread and the collectors' share them:
 * they are idle or short while a file is read.
 */
const SPLIT_MIN_THREADS = 2;

/**
 * Below this share of the time so far spent building rows, a dump is read by one thread. The
 * helper walks past the samples before its part (skip-item.ts) at about a sixth of the cost
 * of reading them into rows (`npm run bench per-sample`: 18-19 us a sample against 101-107),
 * but its part's pickle and token lists cost it what they cost this thread: a dump of long
 * token lists (8000 a sample: building 5% of the time) would only be read twice.
 * The bench's 100k-sample dump measures 0.26-0.37 over the stretch (a collection in it moves
 * the share by a tenth); at 0.3 one open in four was read by one thread (14 s instead of 10).
 */
const SPLIT_MIN_BUILD_SHARE = 0.2;

/**
 * Only a dump this thread alone would take this long to read the rest of is read by two: the
 * helper costs a fixed part (a thread started, the pickle walked to its part, its rows taken
 * in) that the time it saves pays back only on a long read. On 2 cores, dumps written by
 * torch.save from slime's own samples, one thread against two: 92 MB (1 s) 1.2x slower by
 * two, 184 MB (1.75 s) and 276 MB of long samples (1.6 s) even, 83 MB of small samples (2.8 s)
 * 0.9x, 367 MB (3.2 s) 0.85x, 614 MB (6.2 s) 0.8x.
 */
const SPLIT_MIN_SECONDS = 2;

/**
 * Above this many bytes a sample, a dump is read by one thread whatever its build share: its
 * samples' long token lists are scanned at the speed memory streams, and two threads scanning
 * them at once slowed each other down so much (this thread by 1.7x on a 1 GB dump of 70 KB
 * samples, by 1.1x at 100k samples of 6 KB) that reading in parts took 1.25x as long.
 */
const SPLIT_MAX_SAMPLE_BYTES = 32 * 1024;

/**
 * The helper gives up when it read this far into its part without claiming a sample (a dump
 * whose samples cannot be read alone, a compressed entry): the file's thread reads them.
 */
const CLAIM_BY_FRACTION = 0.5;

/**
 * The helper sends its rows in pieces of about this many as it builds them (each packed apart,
 * with a table of its own) rather than holding them to the end, and the file's thread takes
 * them as they come: at 100k samples the part's rows, the message carrying them and their
 * copy here all at once made the open's peak memory.
 */
const PIECE_ROWS = 4096;

/** Rows and sample facts the helper sent ahead of its part (PartHelper.send). */
export interface SlimeRowsPiece {
  /** IncrementalRows.listsStarted when they were built: a list read again makes them stale */
  list: number;
  rows: PackedRow[];
  /** the facts of samples `factsFrom` on (null where no sample dict) */
  factsFrom: number;
  facts: (SampleFacts | null)[];
}

/**
 * What the helper read: the samples from `first` on (structured-cloneable). It is the last
 * piece too: the pieces of its `list` come before its rows and facts.
 */
export interface SlimePart extends SlimeRowsPiece {
  first: number;
  sampleCount: number;
  rolloutId: ClonedPyValue;
  /** SamplesInFile.placesFrom(first) */
  places: Float64Array;
  /** the memo values its samples read from before they started (PickleReplay.before) */
  replay: Map<number, ClonedPyValue>;
  /** the samples kept in memory (not read again from the file), by index */
  kept: [number, ClonedPyValue][];
  perf: PerfSummaryTally;
  skippedEvents: number;
  /** the samples before `first` it walked past without building them */
  walkedPast: number;
  /**
   * how many of those it passed by finding where the next one starts, not walking them
   * (ItemStartScan): its rows then hold only where the file's thread finds that `first`
   * starts at places[0] and that the memo was written in order up to it (partAgrees)
   */
  scanned: number;
}

/**
 * When reading a dump by two threads pays, told while this thread reads it: the share of the
 * time that goes to building rows, measured over a stretch of the file after the first rows
 * were built (the first ones include compiling the code that builds them), decides whether to
 * start the helper and where its part starts.
 */
export class PartStarter {
  /** when, how far in the file, how much building time and how many samples the measured stretch starts at */
  private mark: { at: number; bytes: number; buildMs: number; built: number } | null = null;
  private decided = false;
  /** the helper started ahead of the decision (told where its part starts once it is made) */
  private ahead: PendingPart<SlimePart> | null = null;
  private startedAhead = false;

  private readonly minSeconds: number;

  /** `min`: the least bytes and seconds left worth a helper (tests make them small) */
  constructor(
    private readonly source: ByteSource,
    private readonly reader: PartReader | undefined,
    min: { bytes?: number; seconds?: number } = {},
    private readonly now: () => number = () => performance.now(),
  ) {
    this.minSeconds = min.seconds ?? SPLIT_MIN_SECONDS;
    this.decided =
      reader === undefined ||
      reader.threads < SPLIT_MIN_THREADS ||
      source.path === undefined ||
      source.size < (min.bytes ?? SPLIT_MIN_BYTES);
  }

  /**
   * This thread read `bytesRead` bytes and built `rows.built` samples in `rows.buildMs` so far
   * (counts that start again with a list read again): the helper's part once it is decided to
   * start one (then never again), else null. `samplesEnd`: where the samples' bytes end (a
   * torch zip's data pickle; its tensors' storages after it are never read), which the time
   * left and the part's start are measured against.
   */
  progress(
    bytesRead: number,
    rows: Pick<IncrementalRows, 'built' | 'buildMs' | 'notAlone'>,
    samplesEnd = this.source.size,
  ): PendingPart<SlimePart> | null {
    const { built, buildMs } = rows;
    if (this.decided) return null;
    if (!this.startedAhead && built >= AHEAD_SAMPLES) this.startAhead(bytesRead, rows, samplesEnd);
    if (built < WARM_SAMPLES) return null;
    const now = this.now();
    if (this.mark === null || built < this.mark.built) {
      this.mark = { at: now, bytes: bytesRead, buildMs, built };
      return null;
    }
    const size = samplesEnd;
    if (
      bytesRead - this.mark.bytes < Math.max(MEASURED_BYTES, size * MEASURED_SHARE) ||
      built - this.mark.built < MEASURED_SAMPLES
    )
      return null;
    this.decided = true;
    const buildShare = (buildMs - this.mark.buildMs) / (now - this.mark.at);
    const bytesPerSample = (bytesRead - this.mark.bytes) / (built - this.mark.built);
    const secondsLeft =
      ((size - bytesRead) * (now - this.mark.at)) / (bytesRead - this.mark.bytes) / 1000;
    // no least time (tests, comparisons): every dump its samples let be read in parts is, whether
    // or not it pays
    const forced = this.minSeconds === 0;
    const pays =
      forced ||
      (buildShare >= SPLIT_MIN_BUILD_SHARE &&
        bytesPerSample <= SPLIT_MAX_SAMPLE_BYTES &&
        secondsLeft >= this.minSeconds);
    if (!pays || rows.notAlone > 0) {
      this.stop();
      return null;
    }
    const from = Math.floor(bytesRead + (size - bytesRead) * MAIN_PART);
    const ahead = this.ahead;
    this.ahead = null;
    if (ahead !== null) {
      ahead.startAt!(from);
      return ahead;
    }
    return this.started(this.reader!.start(this.source.path!, from));
  }

  /**
   * Cancels a helper started ahead and not handed out (no decision, or not to read in parts):
   * the reading ended before it was decided, or failed.
   */
  stop(): void {
    this.ahead?.cancel();
    this.ahead = null;
  }

  /**
   * The helper started before the decision, once the first samples show they are small enough
   * for two threads (SPLIT_MAX_SAMPLE_BYTES): its thread starts and walks the pickle up to the
   * least its part can start at (MAIN_PART of the file) while this thread measures. Started at
   * the decision instead, at 100k samples it began building 1-1.5 s into the open, the second
   * core idle until then. A decision not to read in parts cancels it.
   */
  private startAhead(
    bytesRead: number,
    rows: Pick<IncrementalRows, 'built' | 'notAlone'>,
    samplesEnd: number,
  ): void {
    this.startedAhead = true;
    if (bytesRead / rows.built > SPLIT_MAX_SAMPLE_BYTES || rows.notAlone > 0) return;
    const notBefore = Math.floor(samplesEnd * MAIN_PART);
    const pending = this.started(this.reader!.start(this.source.path!, { notBefore }));
    if (pending !== null && pending.startAt === undefined) {
      // a reader that cannot be told later: started at the decision
      pending.cancel();
      return;
    }
    this.ahead = pending;
  }

  /** `pending` when it agrees on its start item with this thread (PartBoundary), else null */
  private started(pending: PendingPart | null): PendingPart<SlimePart> | null {
    if (pending === null) return null;
    if (pending.boundary === undefined) {
      pending.cancel();
      return null;
    }
    return pending as PendingPart<SlimePart>;
  }
}

/**
 * The share of what is left to read that this thread builds. The helper passes this thread's
 * part by finding where each sample starts (ItemStartScan: 9-11 us a sample, against 20-24 us
 * for walking it) and builds the rest; this thread also grows the store and search texts of its
 * rows, takes in the helper's pieces and shows previews, which the helper does not. Real-shaped
 * 100k dump in Chromium, 6 turns each, turn about: every row median 8.88 s at 0.45, 8.95 s at
 * 0.42 and 9.67 s at 0.5 (where the helper, now cheaper, waited on this thread), against 9.39 s
 * for the helper that walked, at 0.5. It is also the least the part can start at, which a
 * helper started ahead passes up to.
 */
export const MAIN_PART = 0.45;

/** samples built before the stretch the build share is measured over (the code compiled) */
const WARM_SAMPLES = 200;
/** samples built before the helper is started ahead (their size tells whether it may pay) */
const AHEAD_SAMPLES = 8;
/** that stretch: at least this many bytes and this share of the file, and this many samples */
const MEASURED_BYTES = 2 * 1024 * 1024;
const MEASURED_SHARE = 0.02;
const MEASURED_SAMPLES = 300;

/** The helper's side (FormatDescriptor.readPart): its part of the dump from `from` on. */
export function readSlimePart(
  source: ByteSource,
  from: number,
  helper: PartHelper,
): { part: SlimePart; transfer: ArrayBuffer[] } {
  const inFile = new SamplesInFile(source.size);
  // `from` is the least the part can start at until told (PartHelper.partStart)
  let partFrom = from;
  const told = () => {
    const at = helper.partStart();
    if (at === null) throw new PartGivenUp('the file’s thread read the dump alone');
    partFrom = at;
    return at;
  };
  const rows = new IncrementalRows(inFile, {
    part: 'rest',
    boundary: helper.boundary,
    from,
    told,
  });
  // the facts sent so far end here (a list read again starts over)
  let factsSent = 0;
  let factsList = 0;
  /** the rows and facts built since the last piece */
  const nextPiece = (): SlimeRowsPiece => {
    if (factsList !== rows.listsStarted) {
      factsList = rows.listsStarted;
      factsSent = 0;
    }
    const factsFrom = Math.max(factsSent, rows.claimed);
    factsSent = rows.facts.length;
    const facts = rows.facts.slice(factsFrom);
    return { list: rows.listsStarted, rows: rows.takeRows(), factsFrom, facts };
  };
  // the samples before the part are passed by their starts, not walked: under half the walk's
  // time (the file's thread checks what that relies on, partAgrees)
  const scan = new ItemStartScan();
  const dump = readSlimeDump(source, {
    scanSkippedSamples: scan,
    replay: inFile.replay,
    onProgress: ({ bytesRead, samplesEnd }) => {
      helper.onBytes(bytesRead);
      if (rows.claimed < 0 && bytesRead > partFrom + (samplesEnd - partFrom) * CLAIM_BY_FRACTION)
        throw new PartGivenUp('no sample of the part could be claimed');
      // copied, not transferred: moved buffers would stay in the helper's allocator arena,
      // whose freed memory the process then keeps (20-30 MB more resident at 100k samples)
      if (rows.rows.length >= PIECE_ROWS) helper.send(nextPiece(), []);
    },
    onSamples: (samples) => rows.samples.caughtUp(samples),
    onSample: rows.samples.next,
    skipSample: rows.samples.skip,
    records: TRACE_EVENT_RECORDS,
    onReadAgain: (why) => {
      // samples that cannot be read alone, or that read back a container of a sample walked
      // past: the file's thread, which let its own go, reads the whole dump (it finds out the
      // same way)
      throw new PartGivenUp(
        why === 'memo-rewritten'
          ? 'the dump rewrites memo slots its samples read'
          : 'a sample reads back a container of an earlier one',
      );
    },
  });
  rows.samples.caughtUp(dump.samples);
  const first = rows.claimed;
  if (first < 0) throw new PartGivenUp('no sample of the part could be claimed');
  helper.onPosting();
  const kept: [number, ClonedPyValue][] = [];
  for (let index = first; index < dump.samples.length; index++) {
    const sample = dump.samples[index];
    if (sample !== null) kept.push([index, toCloneable(sample)]);
  }
  const replay = new Map<number, ClonedPyValue>();
  for (const [slot, value] of inFile.replay.before) replay.set(slot, toCloneable(value));
  const places = inFile.placesFrom(first);
  const part: SlimePart = {
    ...nextPiece(),
    first,
    sampleCount: dump.samples.length,
    rolloutId: toCloneable(dump.rolloutId),
    places,
    replay,
    kept,
    perf: rows.perf.tally(),
    skippedEvents: rows.tally.skippedEvents,
    walkedPast: rows.walkedPast,
    scanned: scan.scanned,
  };
  return { part, transfer: [] };
}

/**
 * Whether the helper's part holds where this thread's reading says it does: a helper that
 * passed samples by finding where the next starts (`scanned`) counted them right only if its
 * first sample starts where this thread's sample of that index (`at`) starts, and resolved the
 * memo slots they wrote right only if the pickle wrote its memo in order up to there.
 */
export function partAgrees(
  part: SlimePart,
  at: PickleItemAt | null,
  memoOrder: { inOrder: boolean },
): boolean {
  if (part.scanned === 0) return true;
  return memoOrder.inOrder && at !== null && part.places[0] === at.start;
}

/**
 * The share of the dump's bytes the helper read from its first sample on, of those up to
 * `size` (where the samples end: a torch zip's data pickle), or its samples' share where the
 * file does not place them.
 */
export function helperShareOf(part: SlimePart, size: number): number {
  const start = part.places[0];
  if (start !== undefined && Number.isFinite(start) && size > 0) return (size - start) / size;
  return part.sampleCount === 0 ? 0 : (part.sampleCount - part.first) / part.sampleCount;
}

/**
 * The file's thread stopped at the helper's first sample: its rows, facts, places and perf
 * values are added to this thread's, in sample order. Returns the whole samples list (`list`:
 * the one read here) and the dump's rollout id.
 */
export function takeSlimePart(
  rows: IncrementalRows,
  list: readonly PyValue[],
  part: SlimePart,
  pieces: readonly unknown[],
): { samples: PyValue[]; rolloutId: PyValue } {
  const samples = rows.listUpTo(list, part.first);
  for (let index = samples.length; index < part.sampleCount; index++) samples.push(null);
  for (const [index, sample] of part.kept) samples[index] = fromCloneable(sample);
  rows.facts.length = Math.min(rows.facts.length, part.first);
  for (const piece of [...(pieces as SlimeRowsPiece[]), part]) {
    if (piece.list !== part.list) continue;
    revivePackedRows(piece.rows);
    for (const row of piece.rows) rows.rows.push(row);
    while (rows.facts.length < piece.factsFrom) rows.facts.push(null);
    for (const facts of piece.facts) rows.facts.push(facts);
  }
  if (rows.inFile !== null) {
    rows.inFile.noteAll(part.first, part.places);
    const before = new Map<number, PyValue>();
    for (const [slot, value] of part.replay) before.set(slot, fromCloneable(value));
    rows.inFile.replay.absorb(before);
  }
  rows.perf.absorb(part.perf);
  rows.tally.skippedEvents += part.skippedEvents;
  return { samples, rolloutId: fromCloneable(part.rolloutId) };
}
