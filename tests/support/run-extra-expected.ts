import { readFileSync } from 'node:fs';
import { expect } from 'vitest';
import type { TrendsResult } from '../../src-main/core/model/trend';
import { join } from 'node:path';

/** tests/fixtures/run_extra: its files and what check_run_extra.py computed of them. */
export const RUN_EXTRA = join(__dirname, '../fixtures/run_extra');
export const RUN = join(__dirname, '../fixtures/run');
/** the files of run + run_extra a run's trends read beside its dumps, by name, sorted */
export const RUN_FIGURE_FILES = [
  'sglang-request-metrics-20260825_09.log',
  'slime-trainer-0.jsonl',
  'slime-trainer-0.jsonl',
  'slime-trainer-1.jsonl',
  'slime-trainer-1.jsonl',
  'train_0.pt',
  'train_1.pt',
];

export interface ExpectedTrainSample {
  behavior_versions: [number, number][];
  data_parallel_rank: number;
  loss_masked_tokens: number;
  max_abs_dlogp: number;
  mean_abs_dlogp: number;
  mean_ratio: number;
  rollout_position: number;
  sample_index: number;
  'share_ratio_outside_0.5_2': number;
  token_staleness: number;
  tokens: number;
}

export interface ExpectedTrainFile {
  rollout_id: number;
  samples: number;
  joined_by_rollout_position: number;
  loss_masked_tokens: number;
  loss_masked_tokens_per_dp_rank: Record<string, number>;
  total_lengths_per_dp_rank: Record<string, number>;
  dp_shards: { data_parallel_rank: number; samples: number; micro_batches: number }[];
  per_sample: ExpectedTrainSample[];
  'samples_with_ratio_outside_0.5_2': number[];
  token_weighted: {
    max_abs_dlogp: number;
    mean_abs_dlogp: number;
    mean_entropy: number;
    mean_kl: number;
    mean_ratio: number;
    'share_ratio_outside_0.5_2': number;
  };
  trainer_weight_version: number;
  verl_behavior_age: Record<string, number>;
}

export interface ExpectedRequestMetrics {
  lines: number;
  records: number;
  unparseable_lines: number;
  truncated_last_line: boolean;
  records_by_finish_reason_type: Record<string, number>;
  records_with_cache_hits: number;
  records_with_host_cache_hits: Record<string, number>;
  records_with_retractions: Record<string, number>;
  records_joined_to_slime_sample: number;
  joined_records_per_rollout_dump: Record<string, number>;
  records_without_sample: { id: string; finish_reason: string }[];
  samples_without_joined_record: unknown[];
  slime_rids_without_record: unknown[];
  request_parameters: { rid_equals_id: number; with_input_ids: number };
  files: Record<string, { bytes: number; lines: number; longest_line_bytes: number }>;
}

export interface ExpectedExtra {
  request_metrics: ExpectedRequestMetrics;
  train: { files: Record<string, ExpectedTrainFile> };
}

export const EXPECTED_EXTRA = JSON.parse(
  readFileSync(join(RUN_EXTRA, 'expected_extra.json'), 'utf8'),
) as ExpectedExtra;

/**
 * The trend points of the run with run_extra (rollouts 0 and 1, in that order): each one's
 * mismatch, token staleness, tokens per DP rank and joined records as expected_extra.json has
 * them (computed by check_run_extra.py from the files), figures to 1e-9.
 */
export function expectExpectedExtra(points: TrendsResult['points']): void {
  ['train_0.pt', 'train_1.pt'].forEach((name, k) => {
    const want = EXPECTED_EXTRA.train.files[name];
    const point = points[k];
    expect(point.rolloutId).toBe(want.rollout_id);
    expect(point.mismatch!.meanAbsDelta).toBeCloseTo(want.token_weighted.mean_abs_dlogp, 9);
    expect(point.mismatch!.maxAbsDelta).toBeCloseTo(want.token_weighted.max_abs_dlogp, 9);
    expect(point.mismatch!.meanRatio).toBeCloseTo(want.token_weighted.mean_ratio, 9);
    expect(point.mismatch!.outsideShare).toBeCloseTo(
      want.token_weighted['share_ratio_outside_0.5_2'],
      9,
    );
    expect(point.mismatch!.tokens).toBe(want.loss_masked_tokens);
    expect(point.staleness).toMatchObject({ trainerVersion: want.trainer_weight_version });
    const age = (key: string) =>
      want.verl_behavior_age[`training/off_policy/token_staleness/${key}`];
    expect(point.staleness!.mean).toBeCloseTo(age('mean'), 9);
    expect(point.staleness!.max).toBe(age('max'));
    expect(point.staleness!.staleFraction).toBeCloseTo(age('stale_fraction'), 9);
    expect(point.tokensPerDpRank!.map((r) => r.tokens)).toEqual(
      Object.values(want.loss_masked_tokens_per_dp_rank),
    );
    expect(point.requestMetrics!.records).toBe(
      EXPECTED_EXTRA.request_metrics.joined_records_per_rollout_dump[String(want.rollout_id)],
    );
    expect(point.requestMetrics!.retractions).toBe(0);
  });
}
