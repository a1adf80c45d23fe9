import type { ByteSource } from '../../bytes/byte-source';
import { FormatError } from '../../bytes/format-error';
import { pyKind, type PyValue, type TensorRef } from '../../model/py-value';
import type { TokenMismatch, TrainSampleRecord } from '../../model/run-records';
import { readTensorValues } from '../torch/read-tensor-values';
import { numberOf } from './read-train-dump';

/** Per-token tensors of a train sample: one value per response token (response_lengths). */
export const PER_TOKEN_FIELDS = [
  'log_probs',
  'rollout_log_probs',
  'ref_log_probs',
  'advantages',
  'returns',
  'kl',
  'entropy',
  'values',
  'loss_masks',
] as const;

/** Importance ratios outside this range are the ones TIS/MIS corrections clip or mask. */
export const RATIO_RANGE = [0.5, 2] as const;

/**
 * A train sample's record: its join keys, and the mismatch of the trainer's log-probs with the
 * server's over its loss-masked tokens. The tensors' values are read here (three to five of a
 * sample's nine), used, and let go: only the figures stay. A per-token tensor whose length is
 * not the sample's response length is a coded error naming the file and the sample.
 */
export function trainSampleRecord(
  source: ByteSource,
  sample: Record<string, PyValue>,
  index: number,
  rolloutId: number | null,
): TrainSampleRecord {
  const responseLength = numberOf(sample.response_lengths);
  const position = numberOf(sample.rollout_position);
  for (const field of PER_TOKEN_FIELDS) {
    const tensor = tensorOf(sample[field]);
    if (tensor === null || responseLength === null) continue;
    const length = tensor.shape.reduce((n, d) => n * d, 1);
    if (length !== responseLength)
      throw new FormatError(
        'slime-train/length-mismatch',
        `${source.name}: sample ${index} (rollout_position ${String(position)}): ${field} holds ${length} values, response_lengths says ${responseLength}`,
      );
  }
  const values = (field: string): number[] | null => {
    const tensor = tensorOf(sample[field]);
    if (tensor !== null) return readTensorValues(source, tensor);
    const list = sample[field];
    return Array.isArray(list) && list.every((v) => typeof v === 'number') ? list : null;
  };
  const mask = values('loss_masks');
  const masked = (k: number) => mask === null || mask[k] !== 0;
  const trainer = values('log_probs');
  const server = values('rollout_log_probs');
  return {
    index,
    // the dump's: a sample's `rollout_ids` is slime's per-sample id list, not the rollout
    rolloutId,
    rolloutPosition: position,
    sampleIndex: numberOf(sample.sample_index),
    dpRank: numberOf(sample.data_parallel_rank),
    responseLength,
    totalLength: numberOf(sample.total_lengths),
    mismatch: trainer && server ? tokenMismatch(trainer, server, masked) : null,
    meanEntropy: maskedMean(values('entropy'), masked),
    meanKl: maskedMean(values('kl'), masked),
  };
}

function tensorOf(value: PyValue | undefined): TensorRef | null {
  return pyKind(value) === 'tensor' ? (value as TensorRef) : null;
}

/** Mismatch figures over the tokens `masked` keeps (Δ = trainer - server, ratio = exp Δ). */
export function tokenMismatch(
  trainer: ArrayLike<number>,
  server: ArrayLike<number>,
  masked: (k: number) => boolean,
): TokenMismatch | null {
  let tokens = 0;
  let sumAbs = 0;
  let maxAbs = 0;
  let sumRatio = 0;
  let outside = 0;
  const n = Math.min(trainer.length, server.length);
  for (let k = 0; k < n; k++) {
    if (!masked(k)) continue;
    const delta = trainer[k] - server[k];
    if (!Number.isFinite(delta)) continue;
    const ratio = Math.exp(delta);
    tokens++;
    sumAbs += Math.abs(delta);
    maxAbs = Math.max(maxAbs, Math.abs(delta));
    sumRatio += ratio;
    if (ratio < RATIO_RANGE[0] || ratio > RATIO_RANGE[1]) outside++;
  }
  if (tokens === 0) return null;
  return {
    tokens,
    meanAbsDelta: sumAbs / tokens,
    maxAbsDelta: maxAbs,
    meanRatio: sumRatio / tokens,
    outsideShare: outside / tokens,
  };
}

function maskedMean(values: number[] | null, masked: (k: number) => boolean): number | null {
  if (values === null) return null;
  let sum = 0;
  let n = 0;
  values.forEach((v, k) => {
    if (masked(k) && Number.isFinite(v)) {
      sum += v;
      n++;
    }
  });
  return n === 0 ? null : sum / n;
}
