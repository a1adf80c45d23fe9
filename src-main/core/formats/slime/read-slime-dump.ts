import type { ByteSource } from '../../bytes/byte-source';
import { FormatError } from '../../bytes/format-error';
import { isDict, type LazyList, type PyDict, type PyValue } from '../../model/py-value';
import { sniffZip } from '../zip/read-zip-directory';
import { readTorchZip, type TorchArchive } from '../torch/read-torch-archive';
import { readLegacyTorch, sniffLegacyTorch } from '../torch/read-legacy-torch';
import { PickleCursor } from '../pickle/pickle-cursor';
import { readPickle } from '../pickle/read-pickle';
import type { PickleItemAt, PickleReplay } from '../pickle/pickle-replay';
import type { DictRecords } from '../pickle/dict-records';
import type { ItemStartScan } from '../pickle/item-start-scan';

export interface SlimeDump {
  layout: 'zip' | 'legacy';
  shape: 'wrapped' | 'bare-list';
  rolloutId: PyValue;
  /** sample dicts; pickled Sample objects read as the dict of their attributes */
  samples: PyValue[];
}

export interface ReadDumpOptions {
  /**
   * `samplesEnd`: where the bytes that hold the samples end in the file (its size, or the end
   * of a torch zip's data pickle: the tensors' storages after it are never read)
   */
  onProgress?: (progress: { bytesRead: number; samplesRead: number; samplesEnd: number }) => void;
  shouldCancel?: () => boolean;
  /**
   * the samples list while it is read, each time samples were added to it (complete ones:
   * the pickle appends a sample once it is built); the final list is `samples` of the result.
   * It may replace the samples it was given with smaller values (their trace dropped once
   * its row is built): the reader then lets the originals go instead of keeping them to the
   * end. A list that is read again (see below) is a new list.
   */
  onSamples?: (samples: PyValue[]) => void;
  /**
   * Once the samples list is known (its first 64 samples appended), each later sample dict as soon
   * as it is complete, before its batch is appended: the value returned takes its place (as
   * onSamples may replace samples, but while the sample is young: see
   * PickleOptions.onListItem). `samples` is the list it will be in, at `index`. With
   * `replay`, `at` says where the sample lies in the file so that it can be read again alone
   * (readPickleItem), or is null when it cannot be (it loads a tensor, or shares a container
   * with an earlier sample).
   */
  onSample?: (
    samples: PyValue[],
    index: number,
    sample: PyDict,
    at: PickleItemAt | null,
  ) => PyValue;
  /**
   * Once the samples list is known, asked before each later sample dict is read (its index
   * and where its bytes start): true walks past it without building it (null takes its place;
   * onSample does not see it). A helper thread reads a dump's first part this way.
   */
  skipSample?: (index: number, start: number) => boolean;
  /**
   * Filled with what reading samples again alone needs (PickleOptions.replay), and cleared
   * each time the dump is read again from its start.
   */
  replay?: PickleReplay;
  /**
   * Dicts the samples hold that are read as records (PickleOptions.records): a sample given
   * to onSample holds them, and is read again alone (readPickleItem) with dicts.
   */
  records?: DictRecords;
  /**
   * With skipSample: samples walked past are passed by finding where the next starts (see
   * PickleOptions.scanSkippedItems); `scanned` says how many were.
   */
  scanSkippedSamples?: ItemStartScan;
  /** see PickleOptions.memoOrder */
  memoOrder?: { inOrder: boolean };
  /** the dump is read again from its start, and why (samples is then a new list) */
  onReadAgain?: (why: 'memo-forgotten' | 'memo-rewritten' | 'record-read-back') => void;
}

/** Cheap and never throws: a ZIP (torch's default) or torch's legacy magic pickle. */
export function sniffSlimeDump(head: Uint8Array): boolean {
  try {
    return sniffZip(head) || sniffLegacyTorch(head);
  } catch {
    return false;
  }
}

/**
 * A slime rollout dump: `torch.save({"rollout_id", "samples": [...]})` or a bare list of
 * samples, in either torch layout. Token-sized lists stay byte ranges (LazyList).
 */
export function readSlimeDump(source: ByteSource, options: ReadDumpOptions = {}): SlimeDump {
  const head = source.read(0, 64);
  let samplesEnd = source.size;
  const onTick = (offset: number, samplesRead: number) => {
    if (options.shouldCancel?.()) throw new FormatError('open/cancelled', 'opening was cancelled');
    options.onProgress?.({ bytesRead: offset, samplesRead, samplesEnd });
  };
  const isZip = sniffZip(head);
  if (!isZip && !sniffLegacyTorch(head))
    throw new FormatError(
      'slime/not-a-dump',
      'not a torch.save file (no ZIP header, no legacy magic number)',
      0,
    );
  const read = (forget: boolean, replay: PickleReplay | undefined) => {
    const watcher = options.onSamples
      ? samplesListWatcher(options.onSamples, options.onSample, options.skipSample, forget)
      : undefined;
    const hooks = {
      onTick,
      onAppend: watcher?.onAppend,
      onListItem: watcher?.onListItem,
      skipListItem: watcher?.skipListItem,
      replay,
      records,
      scanSkippedItems: options.scanSkippedSamples,
      memoOrder: options.memoOrder,
      onPickleEnd: (end: number) => (samplesEnd = end),
    };
    return isZip ? readTorchZip(source, hooks) : readLegacyTorch(source, hooks);
  };
  let archive: TorchArchive;
  let forget = true;
  let replay = options.replay;
  let records = options.records;
  for (;;) {
    try {
      archive = read(forget, replay);
      break;
    } catch (error) {
      if (!(error instanceof FormatError)) throw error;
      // a dump that reads a finished sample's dict or list again (shared between samples):
      // read it again keeping every value to the end, as torch.load does
      if (error.code === 'pickle/memo-forgotten' && forget) forget = false;
      // one that writes again a memo slot its samples read: they cannot be read alone
      else if (error.code === 'pickle/memo-rewritten' && replay) replay = undefined;
      // one that reads an event dict back (shares it with another value): read with dicts
      else if (error.code === 'pickle/record-read-back' && records) records = undefined;
      else throw error;
      options.replay?.clear();
      options.onReadAgain?.(
        error.code === 'pickle/memo-forgotten'
          ? 'memo-forgotten'
          : error.code === 'pickle/memo-rewritten'
            ? 'memo-rewritten'
            : 'record-read-back',
      );
    }
  }
  options.replay?.done();
  const value = archive.value;
  if (Array.isArray(value)) {
    options.onProgress?.({ bytesRead: source.size, samplesRead: value.length, samplesEnd });
    return { layout: archive.layout, shape: 'bare-list', rolloutId: null, samples: value };
  }
  if (isDict(value) && Array.isArray(value.samples)) {
    options.onProgress?.({
      bytesRead: source.size,
      samplesRead: value.samples.length,
      samplesEnd,
    });
    return {
      layout: archive.layout,
      shape: 'wrapped',
      rolloutId: value.rollout_id ?? null,
      samples: value.samples,
    };
  }
  throw new FormatError(
    'slime/not-a-dump',
    'a torch file, but not a slime rollout dump (no "samples" list and not a list of samples)',
    0,
  );
}

// the samples list sits at most this deep in the pickle's stack: a bare list at 0, the
// wrapped dict's "samples" at 4 (dict, "rollout_id", id, "samples", list)
const SAMPLES_LIST_MAX_DEPTH = 8;

/**
 * Which appended list is the samples list: the shallowest one holding dicts. A sample's own
 * lists (chat messages) may be appended first, deeper; the samples list replaces them as soon
 * as its first items are appended (PickleOptions.firstBatchEarly). A wrong pick only costs
 * time: the caller checks identity.
 */
function samplesListWatcher(
  onSamples: (samples: PyValue[]) => void,
  onSample: ReadDumpOptions['onSample'],
  skipSample: ReadDumpOptions['skipSample'],
  forget: boolean,
) {
  let chosen: PyValue[] | null = null;
  let chosenDepth = Infinity;
  return {
    onAppend: (list: PyValue[], depth: number, forgetFinished: () => void): boolean => {
      if (list !== chosen) {
        if (depth >= chosenDepth || depth > SAMPLES_LIST_MAX_DEPTH || !isDict(list[0]))
          return false;
        chosen = list;
        chosenDepth = depth;
      }
      onSamples(list);
      if (forget) forgetFinished();
      return onSample !== undefined;
    },
    onListItem: onSample
      ? (
          list: PyValue[],
          index: number,
          sample: PyDict,
          forgetFinished: () => void,
          at: PickleItemAt | null,
        ) => {
          if (list !== chosen) return sample;
          const kept = onSample(list, index, sample, at);
          // the memo lets go of the sample's finished dicts and lists (amortized)
          if (forget) forgetFinished();
          return kept;
        }
      : undefined,
    skipListItem: skipSample
      ? (list: PyValue[], index: number, start: number) =>
          list === chosen && skipSample(index, start)
      : undefined,
  };
}

/** The numbers of a LazyList, re-read from its byte range now that a user asked. */
export function readLazyList(source: ByteSource, list: LazyList): number[] {
  // The range holds EMPTY_LIST [BINPUT n] (MARK items APPENDS)*: replay it as a pickle.
  const bytes = source.read(list.byteOffset, list.byteLength);
  const framed = new Uint8Array(bytes.length + 1);
  framed.set(bytes);
  framed[bytes.length] = 0x2e; // STOP
  const cursor = new PickleCursor(
    { name: source.name, size: framed.length, read: (o, n) => framed.subarray(o, o + n) },
    0,
    list.byteOffset,
  );
  const { value } = readPickle(cursor, { lazyListMin: Number.MAX_SAFE_INTEGER });
  if (!Array.isArray(value))
    throw new FormatError(
      'slime/bad-lazy-list',
      'the list bytes no longer read as a list',
      list.byteOffset,
    );
  return value.map((v) => (typeof v === 'number' ? v : typeof v === 'bigint' ? Number(v) : NaN));
}

// (a tensor's values are the torch container's: slime's and the train dump's read them alike)
export { readTensorValues } from '../torch/read-tensor-values';
