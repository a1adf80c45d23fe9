import type { ByteSource } from '../../bytes/byte-source';
import { FormatError } from '../../bytes/format-error';
import { pyKind, type PyValue, type TensorRef } from '../../model/py-value';
import type { TokenMismatch, TrainSampleRecord } from '../../model/run-records';
import { TensorViewReader } from '../torch/tensor-view-reader';
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

/** The tensors a sample's figures read, each in its own slot of the view reader. */
const FIGURE_FIELDS = ['loss_masks', 'log_probs', 'rollout_log_probs', 'entropy', 'kl'] as const;

/**
 * A train sample's record: its join keys, and the mismatch of the trainer's log-probs with the
 * server's over its loss-masked tokens. The five tensors the figures need (of a sample's nine)
 * are read into `views`' buffers and walked once together, as typed arrays: only the figures
 * stay. A per-token tensor whose length is not the sample's response length is a coded error
 * naming the file and the sample.
 */
export function trainSampleRecord(
  source: ByteSource,
  sample: Record<string, PyValue>,
  index: number,
  rolloutId: number | null,
  views: TensorViewReader = new TensorViewReader(source),
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
  const [mask, trainer, server, entropy, kl] = FIGURE_FIELDS.map((field, slot) => {
    const tensor = tensorOf(sample[field]);
    if (tensor !== null) return views.read(slot, tensor);
    const list = sample[field];
    return Array.isArray(list) && list.every((v) => typeof v === 'number') ? list : null;
  });
  const figures = sampleFigures(mask, trainer, server, entropy, kl);
  return {
    index,
    // the dump's: a sample's `rollout_ids` is slime's per-sample id list, not the rollout
    rolloutId,
    rolloutPosition: position,
    sampleIndex: numberOf(sample.sample_index),
    dpRank: numberOf(sample.data_parallel_rank),
    responseLength,
    totalLength: numberOf(sample.total_lengths),
    mismatch: trainer && server ? figures.mismatch : null,
    meanEntropy: entropy ? figures.meanEntropy : null,
    meanKl: kl ? figures.meanKl : null,
  };
}

function tensorOf(value: PyValue | undefined): TensorRef | null {
  return pyKind(value) === 'tensor' ? (value as TensorRef) : null;
}

type Values = ArrayLike<number> | null;

/**
 * A sample's figures in one walk over its tokens: the mismatch over the tokens the loss mask
 * keeps (Δ = trainer - server, ratio = exp Δ; a token past the mask's end is kept), and the
 * masked means of entropy and kl. Each array counts up to its own length.
 */
export function sampleFigures(
  mask: Values,
  trainer: Values,
  server: Values,
  entropy: Values,
  kl: Values,
): { mismatch: TokenMismatch | null; meanEntropy: number | null; meanKl: number | null } {
  const pairs = trainer && server ? Math.min(trainer.length, server.length) : 0;
  const entropies = entropy?.length ?? 0;
  const kls = kl?.length ?? 0;
  const masks = mask?.length ?? 0;
  const n = Math.max(pairs, entropies, kls);
  let tokens = 0;
  let sumAbs = 0;
  let maxAbs = 0;
  let sumRatio = 0;
  let outside = 0;
  let entropySum = 0;
  let entropyCount = 0;
  let klSum = 0;
  let klCount = 0;
  for (let k = 0; k < n; k++) {
    if (k < masks && mask![k] === 0) continue;
    if (k < pairs) {
      const delta = trainer![k] - server![k];
      if (Number.isFinite(delta)) {
        const abs = Math.abs(delta);
        const ratio = Math.exp(delta);
        tokens++;
        sumAbs += abs;
        if (abs > maxAbs) maxAbs = abs;
        sumRatio += ratio;
        if (ratio < RATIO_RANGE[0] || ratio > RATIO_RANGE[1]) outside++;
      }
    }
    if (k < entropies && Number.isFinite(entropy![k])) {
      entropySum += entropy![k];
      entropyCount++;
    }
    if (k < kls && Number.isFinite(kl![k])) {
      klSum += kl![k];
      klCount++;
    }
  }
  return {
    mismatch:
      tokens === 0
        ? null
        : {
            tokens,
            meanAbsDelta: sumAbs / tokens,
            maxAbsDelta: maxAbs,
            meanRatio: sumRatio / tokens,
            outsideShare: outside / tokens,
          },
    meanEntropy: entropyCount === 0 ? null : entropySum / entropyCount,
    meanKl: klCount === 0 ? null : klSum / klCount,
  };
}
