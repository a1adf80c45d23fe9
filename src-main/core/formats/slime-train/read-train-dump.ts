import type { ByteSource } from '../../bytes/byte-source';
import { FormatError } from '../../bytes/format-error';
import { isDict, type PyValue } from '../../model/py-value';
import { sniffZip } from '../zip/read-zip-directory';
import { readTorchZip } from '../torch/read-torch-archive';
import { readLegacyTorch, sniffLegacyTorch } from '../torch/read-legacy-torch';
import { isRankColumns, samplesOfRankColumns } from './rank-columns';

/** The `format_version`s of slime's train_data_utils this reader knows. */
export const KNOWN_VERSIONS = [2];

/** slime's train-side debug dump (`--save-debug-train-data`), as torch.save wrote it. */
export interface TrainDump {
  /** null: the unversioned per-rank dump (rank-columns.ts) */
  formatVersion: number | null;
  rolloutId: number | null;
  /** the writing process's rank */
  rank: number | null;
  /** sample dicts: per-token tensors stay TensorRefs (byte ranges), read when asked */
  samples: Record<string, PyValue>[];
  dpShards: Record<string, PyValue>[];
}

/**
 * Cheap, never throws: a torch file (ZIP or legacy) whose data pickle starts with the keys of
 * slime's train dump. torch.save writes the top dict's keys first (`format_version`,
 * `rollout_id`, `rank`, `samples`) and the first sample's keys follow within the head: its
 * first, `data_parallel_rank`, is the train dump's own (a rollout dump has no such key), and
 * so is `rollout_position`, which slime leaves out when a shard has no `partition`. Before
 * format_version 2 slime saved `{rollout_id, rank, rollout_data}` (rank-columns.ts).
 */
export function sniffTrainDump(head: Uint8Array): boolean {
  try {
    if (!sniffZip(head) && !sniffLegacyTorch(head)) return false;
    // the unversioned per-rank dump: `rollout_id`, `rank`, then `rollout_data`, a key no
    // rollout dump has (its columns may be long: nothing after it is looked for)
    if (indexOfAscii(head, 'rollout_id') >= 0 && indexOfAscii(head, 'rollout_data') >= 0)
      return true;
    return (
      indexOfAscii(head, 'format_version') >= 0 &&
      (indexOfAscii(head, 'data_parallel_rank') >= 0 || indexOfAscii(head, 'rollout_position') >= 0)
    );
  } catch {
    return false;
  }
}

function indexOfAscii(bytes: Uint8Array, text: string): number {
  const first = text.charCodeAt(0);
  outer: for (let i = bytes.indexOf(first); i >= 0; i = bytes.indexOf(first, i + 1)) {
    if (i + text.length > bytes.length) return -1;
    for (let k = 1; k < text.length; k++) {
      if (bytes[i + k] !== text.charCodeAt(k)) continue outer;
    }
    return i;
  }
  return -1;
}

/** Reads the dump's pickle (storages located, never read) and checks its shape and version. */
export function readTrainDump(
  source: ByteSource,
  onTick?: (offset: number, samplesRead: number) => void,
): TrainDump {
  const head = source.read(0, 64);
  const archive = sniffZip(head)
    ? readTorchZip(source, { onTick })
    : sniffLegacyTorch(head)
      ? readLegacyTorch(source, { onTick })
      : null;
  if (archive === null)
    throw new FormatError('slime-train/not-a-dump', `${source.name}: not a torch.save file`, 0);
  const value = archive.value;
  if (isRankColumns(value)) {
    return {
      formatVersion: null,
      rolloutId: numberOf(value.rollout_id),
      rank: numberOf(value.rank),
      samples: samplesOfRankColumns(value.rollout_data, source.name),
      dpShards: [],
    };
  }
  if (!isDict(value) || !Array.isArray(value.samples))
    throw new FormatError(
      'slime-train/not-a-dump',
      `${source.name}: a torch file, but not a slime train dump (no "samples" list)`,
      0,
    );
  const version = numberOf(value.format_version);
  if (version === null || !KNOWN_VERSIONS.includes(version))
    throw new FormatError(
      'slime-train/unknown-version',
      `${source.name}: train dump format_version ${String(value.format_version)} is not one this app reads (${KNOWN_VERSIONS.join(', ')})`,
      0,
    );
  const samples = value.samples.map((sample, index) => {
    if (!isDict(sample))
      throw new FormatError(
        'slime-train/bad-sample',
        `${source.name}: sample ${index} is not a dict`,
        0,
      );
    return sample;
  });
  const shards = Array.isArray(value.dp_shards) ? value.dp_shards.filter(isDict) : [];
  return {
    formatVersion: version,
    rolloutId: numberOf(value.rollout_id),
    rank: numberOf(value.rank),
    samples,
    dpShards: shards,
  };
}

/** A pickled int or float as a number (a bigint within range too); null otherwise. */
export function numberOf(value: PyValue | undefined): number | null {
  if (typeof value === 'number') return Number.isFinite(value) ? value : null;
  if (typeof value === 'bigint') return Number(value);
  if (typeof value === 'boolean') return value ? 1 : 0;
  return null;
}
