// slime's train-side debug dump for the bench (issue 44): what `save_debug_train_data`
// (slime/observability/train_data_utils.py) torch.saves, in torch's zip layout, its keys in the
// order of tests/fixtures/run_extra/train/train_0.pt: {format_version 2, rollout_id, rank,
// samples, dp_shards, raw_reward}, each sample its per-token tensors (float32, loss_masks
// int32, tokens int64) as storages of the archive. Deterministic: the same arguments write the
// same file.
import { random, tensorValue, writeTorchArchive } from './slime-dump-writer.mjs';

const FLOAT_FIELDS = [
  'rollout_log_probs',
  'log_probs',
  'ref_log_probs',
  'advantages',
  'returns',
  'kl',
  'entropy',
];

/** Writes `samples` samples of `responseTokens` response tokens (after `promptTokens`); returns the count. */
export function writeTrainDump(
  path,
  { samples = 4096, responseTokens = 8192, promptTokens = 512, dpRanks = 2, seed = 44 } = {},
) {
  return writeTorchArchive(path, 'train_bench', (writer) => {
    writer.value({
      format_version: 2,
      rollout_id: 0,
      rank: 0,
      samples: Array.from({ length: samples }, (_, i) =>
        sample(i, { responseTokens, promptTokens, dpRanks, seed }),
      ),
      dp_shards: Array.from({ length: dpRanks }, (_, rank) => {
        const indices = [];
        for (let i = rank; i < samples; i += dpRanks) indices.push(i);
        return {
          rank,
          data_parallel_rank: rank,
          sample_indices: indices,
          partition: indices,
          global_batch_sizes: [samples],
          num_microbatches: [1],
          micro_batch_indices: [indices.map((_, k) => k)],
        };
      }),
      raw_reward: Array.from({ length: samples }, (_, i) => i % 2),
    });
    return samples;
  });
}

/** One sample dict; its tensors' bytes are made when the archive writes their storages. */
function sample(i, { responseTokens, promptTokens, dpRanks, seed }) {
  const floats = (field) =>
    tensorValue({
      type: 'FloatStorage',
      itemSize: 4,
      shape: [responseTokens],
      fill: (bytes) =>
        fillFloats(
          new Float32Array(bytes.buffer, bytes.byteOffset, responseTokens),
          field,
          i,
          seed,
        ),
    });
  return {
    data_parallel_rank: i % dpRanks,
    sample_index: i,
    rollout_position: i,
    tokens: tensorValue({
      type: 'LongStorage',
      itemSize: 8,
      shape: [promptTokens + responseTokens],
      fill: (bytes) => {
        const rand = random(seed * 7919 + i);
        const ids = new BigInt64Array(
          bytes.buffer,
          bytes.byteOffset,
          promptTokens + responseTokens,
        );
        for (let k = 0; k < ids.length; k++) ids[k] = BigInt(Math.floor(rand() * 150_000));
      },
    }),
    response_lengths: responseTokens,
    rewards: i % 2,
    truncated: 0,
    loss_masks: tensorValue({
      type: 'IntStorage',
      itemSize: 4,
      shape: [responseTokens],
      fill: (bytes) => new Int32Array(bytes.buffer, bytes.byteOffset, responseTokens).fill(1),
    }),
    rollout_ids: 0,
    rollout_mask_sums: tensorValue({
      type: 'FloatStorage',
      itemSize: 4,
      shape: [],
      fill: (bytes) => new Float32Array(bytes.buffer, bytes.byteOffset, 1).fill(responseTokens),
    }),
    source_names: 'unknown',
    total_lengths: promptTokens + responseTokens,
    local_raw_reward: i % 2,
    ...Object.fromEntries(FLOAT_FIELDS.map((field) => [field, floats(field)])),
  };
}

/**
 * A field's values for sample `i`: log-probs in (-3, 0], the server's a little off the
 * trainer's (every 64th token by more: the mismatch the app measures), the rest small numbers.
 */
function fillFloats(values, field, i, seed) {
  // the same log-probs for every field of a sample, each field its own noise
  const base = random(seed * 104729 + i);
  const noise = random(seed * 15485863 + i * 31 + FLOAT_FIELDS.indexOf(field) + 1);
  for (let k = 0; k < values.length; k++) {
    const logProb = -3 * base();
    if (field === 'log_probs') values[k] = logProb;
    else if (field === 'rollout_log_probs')
      values[k] = logProb + (k % 64 === 0 ? 1 : 0.01) * (noise() - 0.5);
    else if (field === 'ref_log_probs') values[k] = logProb - 0.05 * noise();
    else if (field === 'entropy') values[k] = 2 * noise();
    else values[k] = noise() - 0.5;
  }
}
