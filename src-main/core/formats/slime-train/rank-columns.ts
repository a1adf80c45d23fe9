import { FormatError } from '../../bytes/format-error';
import { isDict, type PyValue } from '../../model/py-value';

/**
 * Fields of a rank's rollout data that are not one value per sample: the micro-batch layout and
 * the whole batch's raw rewards (train_data_utils.py's _LAYOUT_FIELDS, _WHOLE_BATCH_FIELDS).
 */
const NOT_PER_SAMPLE = new Set([
  'micro_batch_indices',
  'num_microbatches',
  'global_batch_sizes',
  'raw_reward',
]);
/** Columns named as format_version 2 names them on each sample. */
const ID_COLUMNS: Record<string, string> = {
  sample_indices: 'sample_index',
  partition: 'rollout_position',
};

/**
 * The unversioned dump slime wrote before format_version 2 (and its FSDP backend still
 * writes): `{rollout_id, rank, rollout_data}`, one file per rank, `rollout_data` that rank's
 * columns (a list per field, one entry per local sample). Turned into format 2's sample dicts,
 * as _build_dump_payload transposes a shard: `partition` becomes `rollout_position`,
 * `sample_indices` `sample_index`; a field whose value is not a list of one entry per sample
 * is left out. Neither the data-parallel rank nor the DP layout is in the file: the samples'
 * rank is null and the dump has no DP shards.
 */
export function samplesOfRankColumns(
  rolloutData: Record<string, PyValue>,
  fileName: string,
): Record<string, PyValue>[] {
  const lengths = rolloutData.response_lengths;
  if (!Array.isArray(lengths))
    throw new FormatError(
      'slime-train/not-a-dump',
      `${fileName}: rollout_data has no response_lengths list`,
      0,
    );
  const samples: Record<string, PyValue>[] = lengths.map(() => ({}));
  for (const [key, value] of Object.entries(rolloutData)) {
    if (NOT_PER_SAMPLE.has(key) || !Array.isArray(value) || value.length !== samples.length)
      continue;
    const name = ID_COLUMNS[key] ?? key;
    value.forEach((v, i) => (samples[i][name] = v));
  }
  return samples;
}

/** Whether a torch file's value is the unversioned per-rank dump. */
export function isRankColumns(value: PyValue): value is Record<string, PyValue> & {
  rollout_data: Record<string, PyValue>;
} {
  return isDict(value) && value.format_version === undefined && isDict(value.rollout_data);
}
