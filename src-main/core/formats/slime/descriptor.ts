import type { ByteSource } from '../../bytes/byte-source';
import type { PendingPart } from '../../bytes/part-reader';
import { fieldName, valueAtPath, type SampleFieldPath } from '../../model/sample-field-path';
import { pyKind, type LazyList, type PyValue, type TensorRef } from '../../model/py-value';
import { buildSlimeCache } from '../../rows/slime-cache';
import { TRACE_EVENT_RECORDS } from '../../rows/trace-event-record';
import {
  defineFormat,
  type FormatOpened,
  type FormatOpenOptions,
  type RowSink,
} from '../format-descriptor';
import { readLazyList, readSlimeDump, readTensorValues, sniffSlimeDump } from './read-slime-dump';
import { SamplesInFile } from './samples-in-file';
import { dumpRolloutId } from './dump-rollout-id';
import { HandedOver, IncrementalRows, newSamplesOf, sampleRow } from './open/incremental-rows';
import {
  helperShareOf,
  PartStarter,
  readSlimePart,
  partAgrees,
  takeSlimePart,
  type SlimePart,
} from './open/read-in-parts';

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
    facets: { untraced: true, attempts: true, groups: true, rewards: true, pd: true },
  },
  sniff: (head) => sniffSlimeDump(head),
  // a .pt name that is not a torch file: the dump reader says precisely what is wrong
  claimUnsniffed: (name) => /\.(pt|pth)$/i.test(name),
  open: (sources, options) => openSlime(sources[0], options),
  streamRows: (sources, options, sink) => streamSlimeRows(sources[0], options, sink),
  readPart: readSlimePart,
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
  // (a report asks for every sample: kept as read, not read a second time)
  const inFile = source.path !== undefined && !options.keepSamples;
  const rows = new IncrementalRows(
    inFile ? new SamplesInFile(source.size, source.modifiedMs) : null,
  );
  // a large dump is read by two threads when building rows takes enough of the time (not when
  // samples are kept: the helper lets its own go)
  const partReader = options.keepSamples ? undefined : options.partReader;
  const starter = new PartStarter(source, partReader, {
    bytes: options.splitMinBytes,
    seconds: partReader?.splitMinSeconds,
  });
  // (a holder: the part is started in a callback, which the compiler's narrowing cannot see)
  const split: {
    part: PendingPart<SlimePart> | null;
    pieces: unknown[];
    rest: SlimePart | null;
  } = { part: null, pieces: [], rest: null };
  let listSoFar: PyValue[] = [];
  // whether the memo is written in order, which a helper that scanned past samples relied on
  const memoOrder = { inOrder: true };
  /** read in parts: the share the helper read */
  let helperShare: number | undefined;
  /** where the samples' bytes end (a torch zip's data pickle: its storages are never read) */
  let samplesEnd = source.size;
  // the file is read once its samples are (its storages are located, not read): progress says
  // how much of the file is done, so a dump of tensors does not stop at a third and then jump
  const fileDone = (at: number) =>
    samplesEnd > 0 && samplesEnd < source.size
      ? Math.min(source.size, Math.round((at / samplesEnd) * source.size))
      : at;
  let dump: { samples: PyValue[]; rolloutId: PyValue };
  try {
    dump = readSlimeDump(source, {
      replay: rows.inFile?.replay,
      onProgress: (p) => {
        samplesEnd = p.samplesEnd;
        const part = starter.progress(p.bytesRead, rows, p.samplesEnd);
        if (part !== null) {
          split.part = part;
          rows.shareWith({
            part: 'start',
            boundary: part.boundary!,
            handOver: (index, at) => {
              split.rest = part.wait((bytesRead) =>
                options.onProgress?.({
                  bytesRead: fileDone(bytesRead),
                  samplesRead: index,
                  phase: 'reading',
                }),
              );
              if (split.rest !== null && !partAgrees(split.rest, at, memoOrder)) split.rest = null;
              if (split.rest !== null) return true;
              // it gave up (and is ended): what it sent ahead is nobody's rows
              split.part = null;
              split.pieces = [];
              return false;
            },
          });
        }
        // the helper's rows so far, as they come
        if (split.part?.pieces) split.pieces.push(...split.part.pieces());
        options.onProgress?.({
          bytesRead: fileDone(p.bytesRead),
          samplesRead: p.samplesRead,
          phase: 'reading',
        });
      },
      shouldCancel: options.shouldCancel,
      records: TRACE_EVENT_RECORDS,
      memoOrder,
      onSamples: (samples) => {
        listSoFar = samples;
        rows.samples.caughtUp(samples);
        options.onRows?.(rows.rows, rows.traceSamples(samples));
      },
      onSample: rows.samples.next,
    });
    // a list the pickle built in one step (LIST) was never seen while it was read
    rows.samples.caughtUp(dump.samples);
  } catch (error) {
    // handed over: the helper's part holds the rest (a helper that failed, on a dump it could
    // not read in parts or by dying, let this thread read on: IncrementalRows.builds)
    const { part, rest } = split;
    if (!(error instanceof HandedOver) || part === null || rest === null) throw error;
    // no preview of them: every byte is read, and the whole file's store takes them in next
    // (a preview of 100k rows here cost a second before the file could be said to be open)
    dump = takeSlimePart(rows, listSoFar, rest, [...split.pieces, ...(part.pieces?.() ?? [])]);
    helperShare = helperShareOf(rest, samplesEnd);
  } finally {
    split.part?.cancel();
    starter.stop();
  }
  options.onStepEnd?.('read');
  options.onProgress?.({
    bytesRead: source.size,
    samplesRead: dump.samples.length,
    phase: 'building',
  });
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
  const samples = rows.traceSamples(dump.samples);
  // only traced samples can be resumed: theirs are the start rollout ids that count
  const { rolloutId, notice } = dumpRolloutId(toJsonScalar(dump.rolloutId), source.name, () =>
    rows.rows.map((row) => samples.facts[row.row_id]?.startRolloutId ?? null),
  );
  if (notice !== null) notices.push(notice);
  return {
    rows: rows.rows,
    samples,
    perf: rows.perf.result(),
    notices,
    sampleCount: dump.samples.length,
    untracedSamples,
    rolloutId,
    ...(helperShare !== undefined ? { helperShare } : {}),
  };
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
    records: TRACE_EVENT_RECORDS,
    onSamples: samples.caughtUp,
    onSample: samples.next,
  });
  // a list the pickle built in one step (LIST) was never seen while it was read
  samples.caughtUp(dump.samples);
}

function toJsonScalar(value: PyValue): string | number | boolean | null {
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return value;
  if (typeof value === 'number') return value;
  if (typeof value === 'bigint') return value.toString();
  return null;
}

/**
 * Token ids, log probs or tensor values of one sample field, re-read from the file's bytes
 * only now that a user asked: they were kept as byte ranges when the file was opened.
 */
function readSampleValues(
  sample: PyValue,
  field: SampleFieldPath,
  withBytes: <T>(use: (bytes: ByteSource) => T) => T,
  limit: number,
): { length: number; values: number[] } {
  // (a tensor nested in a dict: slime's multimodal_train_inputs holds them by name)
  const value = valueAtPath(sample, field) as PyValue | undefined;
  const kind = pyKind(value);
  if (kind !== 'lazy-list' && kind !== 'tensor') {
    if (Array.isArray(value) && value.every((v) => typeof v === 'number')) {
      return { length: value.length, values: value as number[] };
    }
    throw new Error(`field ${fieldName(field)} holds no list of numbers`);
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
