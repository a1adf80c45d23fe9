import type { ByteSource } from '../../bytes/byte-source';
import {
  isDict,
  newPyDict,
  type LazyList,
  type PyDict,
  type PyValue,
  type TensorRef,
} from '../../model/py-value';
import { buildRow } from '../../rows/build-rows';
import type { PackedRow, Row } from '../../model/row';
import type { SampleFacts, TraceSamples } from '../../model/sample-facts';
import { ItemPacker } from '../../rows/packed-items';
import { buildPdView } from '../../rows/pd-lanes';
import { PerfSummaryBuilder } from '../../rows/perf-summary';
import { buildSlimeCache } from '../../rows/slime-cache';
import {
  defineFormat,
  type FormatOpened,
  type FormatOpenOptions,
  type RowSink,
} from '../format-descriptor';
import { readLazyList, readSlimeDump, readTensorValues, sniffSlimeDump } from './read-slime-dump';
import { slimeSampleFacts } from './sample-facts';
import { SamplesInFile } from './samples-in-file';
import type { PickleItemAt } from '../pickle/pickle-replay';

/** slime rollout debug dumps (`rollout_{id}.pt`): TRACE_MODEL sections 1-5. */
export const slimeFormat = defineFormat({
  id: 'slime',
  labels: {
    name: 'slime rollout dump',
    short: 'PT',
    noun: 'slime dump',
    expected: 'a slime rollout dump (.pt)',
    samples: 'samples',
    source: 'source',
    search: '#index, source, status, label, trace id, attrs, span names',
  },
  capabilities: {
    samples: true,
    lazyValues: true,
    perfSeries: true,
    sourceGroups: false,
    facets: { untraced: true, attempts: true, groups: true, rewards: true, pd: true },
  },
  sniff: (head) => sniffSlimeDump(head),
  // a .pt name that is not a torch file: the dump reader says precisely what is wrong
  claimUnsniffed: (name) => /\.(pt|pth)$/i.test(name),
  open: (sources, options) => openSlime(sources[0], options),
  streamRows: (sources, options, sink) => streamSlimeRows(sources[0], options, sink),
  readLazyValues: readSampleValues,
  rowsCache: (source, path, generatedAtSec, options) => {
    const dump = readSlimeDump(source, {
      onProgress: (p) => options.onProgress?.({ ...p, phase: 'reading' }),
    });
    return buildSlimeCache(dump, path, generatedAtSec);
  },
});

/** slime's steps: read the dump, rows from the traces, perf keys, then the PD view. */
function openSlime(source: ByteSource, options: FormatOpenOptions): FormatOpened {
  // Rows and perf keys are taken from each sample as the samples list grows (each sample's row
  // is its own), so rows can be shown while the rest of the file is read, and each sample's
  // trace events are let go as soon as they were used: the rows then hold everything the
  // trace said, and a dump's events are never all in memory at once.
  // a file on disk is read again for a sample's details: its samples need not be kept (an
  // upload's bytes or an inflated .gz would have to be kept or inflated again instead)
  const rows = new IncrementalRows(
    source.path !== undefined ? new SamplesInFile(source.size) : null,
  );
  const dump = readSlimeDump(source, {
    replay: rows.inFile?.replay,
    onProgress: (p) => options.onProgress?.({ ...p, phase: 'reading' }),
    shouldCancel: options.shouldCancel,
    onSamples: (samples) => {
      rows.samples.caughtUp(samples);
      options.onRows?.(rows.rows, rows.traceSamples(samples));
    },
    onSample: rows.samples.next,
  });
  options.onStepEnd?.('read');
  options.onProgress?.({
    bytesRead: source.size,
    samplesRead: dump.samples.length,
    phase: 'building',
  });
  // a list the pickle built in one step (LIST) was never seen while it was read
  rows.samples.caughtUp(dump.samples);
  const untracedSamples = dump.samples.length - rows.rows.length;
  const notices: string[] = [];
  if (dump.samples.length === 0) notices.push('The dump holds no samples.');
  else if (rows.rows.length === 0)
    notices.push(`None of the ${dump.samples.length} samples has a trace.`);
  else if (untracedSamples > 0) notices.push(`${untracedSamples} samples have no trace.`);
  if (rows.tally.skippedEvents > 0)
    notices.push(
      `${rows.tally.skippedEvents} trace events skipped: an id, type or name that is not a plain value.`,
    );
  return {
    rows: rows.rows,
    samples: rows.traceSamples(dump.samples),
    perf: rows.perf.result(),
    notices,
    sampleCount: dump.samples.length,
    untracedSamples,
    rolloutId: toJsonScalar(dump.rolloutId),
  };
}

/**
 * Rows, perf keys and sample facts of a samples list that grows at its end: each sample's row is
 * built once, its perf values added, its facts taken, and then the sample is let go (null in
 * the list) where the file can give it again (`inFile` knows where it lies), else kept without
 * its trace (a fresh dict). A different list (the reader picked another first, or read again)
 * starts over.
 */
class IncrementalRows {
  constructor(readonly inFile: SamplesInFile | null) {}

  /** items packed as each row is built: their objects die young */
  rows: PackedRow[] = [];
  private packer = new ItemPacker();
  /** events skipped as malformed (an id, type or name that is a dict or list) */
  tally = { skippedEvents: 0 };
  perf = new PerfSummaryBuilder();
  /** by sample index; null where the list holds no sample dict */
  private facts: (SampleFacts | null)[] = [];

  readonly samples = newSamplesOf(
    () => {
      this.rows = [];
      this.packer = new ItemPacker();
      this.tally = { skippedEvents: 0 };
      this.perf = new PerfSummaryBuilder();
      this.facts = [];
      this.inFile?.clear();
    },
    (sample, index, at) => {
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
      return 'trace' in sample ? withoutTrace(sample) : sample;
    },
  );

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
        if (again === undefined) return list[rowId];
        return isDict(again) && 'trace' in again ? withoutTrace(again) : again;
      },
    };
  }
}

/**
 * A dump's rows one at a time (FormatDescriptor.streamRows): each sample's row is built as the
 * pickle appends the sample (the same row, PD view included, as `open` builds), handed to
 * `sink`, and the sample is then replaced by null in the list, so that neither the sample nor
 * its trace outlives its row (with the pickle memo forgetting finished dicts, nothing of it
 * stays). No samples list, perf keys or notices are kept: what is left at the end is the
 * dump's skeleton (a list of nulls, and the samples without a trace).
 */
export function streamSlimeRows(
  source: ByteSource,
  options: Pick<FormatOpenOptions, 'onProgress' | 'shouldCancel'>,
  sink: RowSink,
): void {
  let given = 0;
  const tally = { skippedEvents: 0 };
  const samples = newSamplesOf(
    // another list: the reader's first pick was not the samples list (it then gave no row) or
    // the dump is read again; rows already given are not this list's
    () => {
      if (given > 0) sink.restart();
      given = 0;
    },
    (sample, index) => {
      // only a sample (a dict with a trace) is let go: a list picked by mistake holds dicts of
      // a sample (messages, trace events) that the sample still needs
      if (!('trace' in sample)) return sample;
      const row = sampleRow(sample, index, tally);
      if (row !== null) {
        sink.row(row);
        given++;
      }
      return null;
    },
  );
  const dump = readSlimeDump(source, {
    onProgress: (p) => options.onProgress?.({ ...p, phase: 'reading' }),
    shouldCancel: options.shouldCancel,
    onSamples: samples.caughtUp,
    onSample: samples.next,
  });
  // a list the pickle built in one step (LIST) was never seen while it was read
  samples.caughtUp(dump.samples);
}

/**
 * A samples list that grows at its end, read as it grows: `each` sees every sample dict once,
 * in order, and what it returns takes the sample's place. `next` gives it the list's next
 * sample as soon as the pickle completed it (before its batch is appended: the sample is let go
 * while young); `caughtUp` the samples appended since (each batch's last, and all of the
 * first batch). A different list (the reader's first pick was another, or the dump is read
 * again) calls `newList` and starts from its first sample.
 */
function newSamplesOf(
  newList: () => void,
  each: (sample: PyDict, index: number, at: PickleItemAt | null) => PyValue,
): {
  caughtUp: (samples: PyValue[]) => void;
  next: (samples: PyValue[], index: number, sample: PyDict, at: PickleItemAt | null) => PyValue;
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
  };
}

/** One sample's row (TRACE_MODEL section 3, then the PD view), or null without a trace. */
function sampleRow(sample: PyDict, index: number, tally: { skippedEvents: number }): Row | null {
  const row = buildRow(sample, index, tally);
  return row && buildPdView(row, { giveUpRow: true });
}

function toJsonScalar(value: PyValue): string | number | boolean | null {
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return value;
  if (typeof value === 'number') return value;
  if (typeof value === 'bigint') return value.toString();
  return null;
}

/**
 * A sample's fields but its trace, as a fresh dict: `delete` would turn every sample into a
 * slow dictionary object, several times its size.
 */
function withoutTrace(sample: PyDict): PyDict {
  const copy = newPyDict();
  for (const key of Object.keys(sample)) if (key !== 'trace') copy[key] = sample[key];
  return copy;
}

/**
 * Token ids, log probs or tensor values of one sample field, re-read from the file's bytes
 * only now that a user asked: they were kept as byte ranges when the file was opened.
 */
function readSampleValues(
  sample: PyValue,
  field: string,
  withBytes: <T>(use: (bytes: ByteSource) => T) => T,
  limit: number,
): { length: number; values: number[] } {
  const value =
    sample && typeof sample === 'object' ? (sample as Record<string, PyValue>)[field] : undefined;
  const kind = (value as { $kind?: string } | null | undefined)?.$kind;
  if (kind !== 'lazy-list' && kind !== 'tensor') {
    if (Array.isArray(value) && value.every((v) => typeof v === 'number')) {
      return { length: value.length, values: value as number[] };
    }
    throw new Error(`field ${field} holds no list of numbers`);
  }
  return withBytes((bytes) => {
    if (kind === 'lazy-list') {
      const list = value as LazyList;
      return { length: list.length, values: readLazyList(bytes, list).slice(0, limit) };
    }
    const tensor = value as TensorRef;
    const length = tensor.shape.reduce((n, d) => n * d, 1);
    return { length, values: readTensorValues(bytes, tensor, limit) };
  });
}
