import type { ByteSource } from '../../bytes/byte-source';
import { isFormatError } from '../../bytes/format-error';
import { fieldName, valueAtPath, type SampleFieldPath } from '../../model/sample-field-path';
import { pyKind, type PyValue, type TensorRef } from '../../model/py-value';
import type { TrainDpShard, TrainSampleRecord } from '../../model/run-records';
import type { TraceSamples } from '../../model/sample-facts';
import { readTensorValues } from '../torch/read-tensor-values';
import { defineFormat, type FormatOpened, type FormatOpenOptions } from '../format-descriptor';
import { numberOf, readTrainDump, sniffTrainDump } from './read-train-dump';
import { trainSampleRecord } from './train-sample-figures';
import { TensorViewReader } from '../torch/tensor-view-reader';

/**
 * slime's train-side debug dump (`--save-debug-train-data`, slime/observability/
 * train_data_utils.py): the trainer's view of one rollout's samples, per-token log-probs of
 * both the trainer and the server. It has no trace of its own: in a run its samples join the
 * rollout dump's by rollout_id and rollout_position (docs/run-extra.md).
 */
export const slimeTrainFormat = defineFormat({
  id: 'slime-train',
  labels: {
    name: 'slime train-side dump',
    short: 'TRN',
    noun: 'slime train dump',
    expected: 'a slime train-side dump (.pt)',
    samples: 'train samples',
    source: 'source',
    search: '#index',
  },
  capabilities: { samples: true, joinRecords: true, lazyValues: true, facets: { untraced: true } },
  sniff: (head) => sniffTrainDump(head),
  open: (sources, options) => openTrainDump(sources[0], options),
  readLazyValues: readTrainValues,
});

function openTrainDump(source: ByteSource, options: FormatOpenOptions): FormatOpened {
  const dump = readTrainDump(source, (offset, samplesRead) => {
    if (options.shouldCancel?.()) throw new Error('opening was cancelled');
    options.onProgress?.({ bytesRead: offset, samplesRead, phase: 'reading' });
  });
  options.onStepEnd?.('read');
  const notices: string[] = [];
  // one set of buffers for every sample's tensors
  const views = new TensorViewReader(source);
  const records: TrainSampleRecord[] = dump.samples.map((sample, index) => {
    try {
      return trainSampleRecord(source, sample, index, dump.rolloutId, views);
    } catch (error) {
      // a broken sample is named; the others still open and join
      if (!isFormatError(error)) throw error;
      notices.push(`${error.code}: ${error.message}`);
      return {
        ...keysOnly(sample, index, dump.rolloutId),
        mismatch: null,
        meanEntropy: null,
        meanKl: null,
      };
    }
  });
  const samples: TraceSamples = {
    count: dump.samples.length,
    facts: dump.samples.map(() => null),
    // the dicts hold numbers and tensor references (byte ranges) only: they are kept
    read: (rowId) => dump.samples[rowId],
  };
  notices.unshift(
    `A train-side dump of rollout ${String(dump.rolloutId)}: its ${dump.samples.length} samples have no trace; open it with its run to join them to the rollout's samples.`,
  );
  if (dump.formatVersion === null)
    notices.push(
      `An unversioned dump (slime before format_version 2): rank ${String(dump.rank)}'s samples only, one file per rank; their data-parallel rank is not in the file.`,
    );
  return {
    rows: [],
    samples,
    perf: {},
    notices,
    sampleCount: dump.samples.length,
    untracedSamples: dump.samples.length,
    rolloutId: dump.rolloutId,
    runRecords: {
      train: {
        rolloutId: dump.rolloutId,
        samples: records,
        dpShards: dump.dpShards.map(dpShard),
      },
    },
  };
}

function keysOnly(
  sample: Record<string, PyValue>,
  index: number,
  rolloutId: number | null,
): Omit<TrainSampleRecord, 'mismatch' | 'meanEntropy' | 'meanKl'> {
  return {
    index,
    rolloutId,
    rolloutPosition: numberOf(sample.rollout_position),
    sampleIndex: numberOf(sample.sample_index),
    dpRank: numberOf(sample.data_parallel_rank),
    responseLength: numberOf(sample.response_lengths),
    totalLength: numberOf(sample.total_lengths),
  };
}

function dpShard(shard: Record<string, PyValue>): TrainDpShard {
  const indices = shard.sample_indices ?? shard.partition;
  const micro = shard.micro_batch_indices;
  return {
    dpRank: numberOf(shard.data_parallel_rank) ?? numberOf(shard.rank) ?? -1,
    samples: Array.isArray(indices) ? indices.length : 0,
    microBatches: Array.isArray(micro) ? micro.length : 0,
  };
}

/** A train sample's per-token values (the details' per-token strip), read now from the file. */
function readTrainValues(
  sample: PyValue,
  field: SampleFieldPath,
  withBytes: <T>(use: (bytes: ByteSource) => T) => T,
  limit: number,
): { length: number; values: number[] } {
  const value = valueAtPath(sample, field) as PyValue | undefined;
  if (pyKind(value) === 'tensor') {
    const tensor = value as TensorRef;
    const length = tensor.shape.reduce((n, d) => n * d, 1);
    return withBytes((bytes) => ({ length, values: readTensorValues(bytes, tensor, limit) }));
  }
  if (Array.isArray(value) && value.every((v) => typeof v === 'number'))
    return { length: value.length, values: (value as number[]).slice(0, limit) };
  throw new Error(`field ${fieldName(field)} holds no list of numbers`);
}
