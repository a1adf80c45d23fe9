import { isDict, newPyDict, type PyDict, type PyValue } from '../../../model/py-value';
import { buildRow } from '../../../rows/build-rows';
import type { PackedRow, Row } from '../../../model/row';
import type { SampleFacts, TraceSamples } from '../../../model/sample-facts';
import { ItemPacker } from '../../../rows/packed-items';
import { buildPdView } from '../../../rows/pd-lanes';
import { PerfSummaryBuilder } from '../../../rows/perf-summary';
import type { PartBoundary } from '../../../bytes/part-reader';
import { slimeSampleFacts } from '../sample-facts';
import type { SamplesInFile } from '../samples-in-file';
import type { PickleItemAt } from '../../pickle/pickle-replay';

/**
 * Which samples this thread builds when a dump is read by two (see read-in-parts.ts): the
 * file's thread builds them until it reaches the one the helper claimed (`start`), the helper
 * reads the file from its start but builds only from the first sample that starts at or past
 * `from` and that it could claim (`rest`).
 */
export type SamplesShare =
  | {
      part: 'start';
      boundary: PartBoundary;
      /**
       * This thread reached sample `index` (`at`: where it lies), which the helper claimed:
       * blocks until the helper's part is read; true when it holds the samples from `index` on
       * (this thread stops), false when the helper gave up or its part does not agree with
       * this thread's reading (this thread builds on alone, from where it is).
       */
      handOver(index: number, at: PickleItemAt | null): boolean;
    }
  | {
      part: 'rest';
      boundary: PartBoundary;
      /** where the part starts, or the least it can start at while `told` is given */
      from: number;
      /**
       * A part started before the file's thread knew where (PartHelper.partStart): asked once a
       * sample starts at or past `from`, it blocks until told and gives the part's start (a
       * cancelled part throws PartGivenUp).
       */
      told?: () => number;
    };

/** The file's thread reached the sample the helper claimed: its part has the rest. */
export class HandedOver extends Error {
  constructor(readonly index: number) {
    super(`samples from ${index} on are the helper's`);
  }
}

/** The helper could not claim a sample (the file's thread was there first, or none started past its part's start). */
export class PartGivenUp extends Error {}

/**
 * Rows, perf keys and sample facts of a samples list that grows at its end: each sample's row is
 * built once, its perf values added, its facts taken, and then the sample is let go (null in
 * the list) where the file can give it again (`inFile` knows where it lies), else kept without
 * its trace (a fresh dict). A different list (the reader picked another first, or read again)
 * starts over.
 */
export class IncrementalRows {
  constructor(
    readonly inFile: SamplesInFile | null,
    private share: SamplesShare | null = null,
  ) {}

  /** This thread builds its share of the samples from the next one on (see SamplesShare). */
  shareWith(share: SamplesShare): void {
    this.share = share;
  }

  /** samples built, and the milliseconds that took (rows, perf values, facts: what a helper could share) */
  built = 0;
  buildMs = 0;
  /**
   * samples completed while the list was read that cannot be read again alone (they read back
   * a container of an earlier sample, or load a tensor): a helper that walks past samples
   * could not read such a dump
   */
  notAlone = 0;
  /** samples walked past without building them (`samples.skip`) */
  walkedPast = 0;

  /** items packed as each row is built: their objects die young */
  rows: PackedRow[] = [];
  private packer = new ItemPacker();
  /** events skipped as malformed (an id, type or name that is a dict or list) */
  tally = { skippedEvents: 0 };
  perf = new PerfSummaryBuilder();
  /** by sample index; null where the list holds no sample dict */
  facts: (SampleFacts | null)[] = [];
  /**
   * the samples of the batch being read that were kept (not let go), by index: a sample is
   * given before its batch is appended, so when reading stops at a handover the list lacks them
   */
  private kept = new Map<number, PyValue>();
  /** the helper's first sample (-1: none claimed yet): kept when the dump is read again */
  claimed = -1;
  /** how many times the samples list started over (rows taken before belong to an older one) */
  listsStarted = 0;

  private readonly list = newSamplesOf(
    () => {
      this.listsStarted++;
      this.built = 0;
      this.buildMs = 0;
      this.notAlone = 0;
      this.walkedPast = 0;
      this.rows = [];
      this.packer = new ItemPacker();
      this.tally = { skippedEvents: 0 };
      this.perf = new PerfSummaryBuilder();
      this.facts = [];
      this.kept = new Map();
      this.inFile?.clear();
    },
    (sample, index, at) => {
      if (this.share !== null && !this.builds(this.share, index, at)) return null;
      const started = performance.now();
      const kept = this.build(sample, index, at);
      this.buildMs += performance.now() - started;
      this.built++;
      return kept;
    },
  );

  /** newSamplesOf's: each batch appended, the list holds the samples kept so far */
  readonly samples = {
    caughtUp: (samples: PyValue[]) => {
      this.list.caughtUp(samples);
      this.kept.clear();
    },
    next: (samples: PyValue[], index: number, sample: PyDict, at: PickleItemAt | null) => {
      if (at === null) this.notAlone++;
      return this.list.next(samples, index, sample, at);
    },
    /**
     * Whether the reader walks past sample `index`, whose bytes start at `start`, without
     * building it (ReadDumpOptions.skipSample): the helper does until its part starts.
     */
    skip: (index: number, start: number): boolean => {
      const share = this.share;
      if (share === null || share.part !== 'rest' || this.claimed >= 0) return false;
      if (start >= this.partFrom(share, start)) return false;
      this.list.skipped(index);
      this.walkedPast++;
      return true;
    },
  };

  /** Sample `index`'s row, perf values and facts; what takes its place in the list. */
  private build(sample: PyDict, index: number, at: PickleItemAt | null): PyValue {
    const row = sampleRow(sample, index, this.tally);
    if (row) this.rows.push(this.packer.packRow(row));
    this.perf.add(sample);
    // samples come in index order: what was skipped before this one is no sample dict
    while (this.facts.length < index) this.facts.push(null);
    this.facts[index] = slimeSampleFacts(sample);
    if (at !== null && this.inFile !== null) {
      this.inFile.note(index, at);
      return null;
    }
    const kept = 'trace' in sample ? withoutTrace(sample) : sample;
    this.kept.set(index, kept);
    return kept;
  }

  /** Whether this thread builds sample `index` (see SamplesShare); may end the reading. */
  private builds(share: SamplesShare, index: number, at: PickleItemAt | null): boolean {
    if (share.part === 'start') {
      if (!share.boundary.reached(index)) return true;
      if (share.handOver(index, at)) throw new HandedOver(index);
      // the helper gave up after its claim: one that failed because this thread was there
      // first (both saw each other) stops this thread a sample or more past it; reading the
      // whole dump again from its start cost twice the time
      this.share = null;
      return true;
    }
    if (this.claimed >= 0) return index >= this.claimed;
    // a sample that can be read again alone: the file's thread lets its own go the same way
    if (at === null || at.start < this.partFrom(share, at.start)) return false;
    if (!share.boundary.claim(index)) throw new PartGivenUp('the file reached the part first');
    this.claimed = index;
    return true;
  }

  /**
   * Where the helper's part starts, seen from a sample that starts at `start`: a part whose start
   * is still to be told is asked (and waited for) only once a sample reaches the least it can be.
   */
  private partFrom(share: SamplesShare & { part: 'rest' }, start: number): number {
    if (share.told === undefined || start < share.from) return share.from;
    const from = share.told();
    this.share = { part: 'rest', boundary: share.boundary, from };
    return from;
  }

  /**
   * The rows built since the last call, packed apart from the later ones (a packer of their
   * own): another thread can take them, with the table they read through, while this one
   * goes on.
   */
  takeRows(): PackedRow[] {
    const rows = this.packer.rowsToSend(this.rows);
    this.rows = [];
    this.packer = new ItemPacker();
    return rows;
  }

  /**
   * The samples list as it stood when reading stopped at sample `end` (a handover): the list
   * read so far, then the samples of the batch being read, kept or let go.
   */
  listUpTo(list: readonly PyValue[], end: number): PyValue[] {
    const out = list.slice(0, end);
    for (let index = out.length; index < end; index++) out.push(this.kept.get(index) ?? null);
    return out;
  }

  /** The samples of `list` (the one read so far) with their facts. */
  traceSamples(list: readonly PyValue[]): TraceSamples {
    const { facts } = this;
    while (facts.length < list.length) facts.push(null);
    return {
      count: list.length,
      facts,
      read: (rowId, withBytes) => {
        if (!(rowId >= 0 && rowId < list.length)) return undefined;
        const again = this.inFile?.read(rowId, withBytes);
        if (again === undefined) {
          this.inFile?.checkKept(rowId, withBytes);
          return list[rowId];
        }
        return isDict(again) && 'trace' in again ? withoutTrace(again) : again;
      },
    };
  }
}

/**
 * A samples list that grows at its end, read as it grows: `each` sees every sample dict once,
 * in order (but those the reader walked past: `skipped`), and what it returns takes the
 * sample's place. `next` gives it the list's next
 * sample as soon as the pickle completed it (before its batch is appended: the sample is let go
 * while young); `caughtUp` the samples appended since (each batch's last, and those appended
 * before the list was known: the first 64, PickleOptions.firstBatchEarly). A different list (the reader's first pick was another, or the dump is read
 * again) calls `newList` and starts from its first sample.
 */
export function newSamplesOf(
  newList: () => void,
  each: (sample: PyDict, index: number, at: PickleItemAt | null) => PyValue,
): {
  caughtUp: (samples: PyValue[]) => void;
  next: (samples: PyValue[], index: number, sample: PyDict, at: PickleItemAt | null) => PyValue;
  skipped: (index: number) => void;
} {
  let list: PyValue[] | null = null;
  let done = 0;
  return {
    caughtUp: (samples) => {
      if (samples !== list) {
        list = samples;
        done = 0;
        newList();
      }
      for (; done < samples.length; done++) {
        const sample = samples[done];
        if (isDict(sample)) samples[done] = each(sample, done, null);
      }
    },
    next: (samples, index, sample, at) => {
      // only the next sample of the list being read: anything else waits for its append
      if (samples !== list || index !== done) return sample;
      done++;
      return each(sample, index, at);
    },
    // the reader walked past the list's next sample: null takes its place
    skipped: (index) => {
      if (index === done) done++;
    },
  };
}

/** One sample's row (TRACE_MODEL section 3, then the PD view), or null without a trace. */
export function sampleRow(
  sample: PyDict,
  index: number,
  tally: { skippedEvents: number },
): Row | null {
  const row = buildRow(sample, index, tally);
  return row && buildPdView(row, { giveUpRow: true });
}

/**
 * A sample's fields but its trace, as a fresh dict: `delete` would turn every sample into a
 * slow dictionary object, several times its size.
 */
export function withoutTrace(sample: PyDict): PyDict {
  const copy = newPyDict();
  for (const key of Object.keys(sample)) if (key !== 'trace') copy[key] = sample[key];
  return copy;
}
