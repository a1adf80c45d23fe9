import { describe, expect, it } from 'vitest';
import {
  NOISE_RULE,
  changeVerdict,
  metricDirection,
  metricUnit,
  relativeChange,
} from '../../../src-main/core/compare/metric-change';

/**
 * Units and the noise rule of compared figures (core/compare/metric-change.ts), as NOISE_RULE
 * states them: coloured only at 5% or more and at least 10 ms, 1 token, 1 sample, 1 tok/s, 0.01
 * reward (0.1 GB/s, 1 MB, 1 group, 1 count).
 */
describe('units of figures', () => {
  it('by what a key names, case aside', () => {
    const units = Object.fromEntries(
      [
        'perf/prefill/transfer_speed_gb_s/mean',
        'perf/prefill/transfer_total_mb/max',
        'perf/Decode/Throughput/mean',
        'perf/request/retry_count/max',
        'response_length/median',
        'reward/std',
        'groups/zero_variance_groups',
        'rollout/wall_time_sec',
        'perf/request/e2e_latency/mean',
        'perf/request/queue_time/p99',
        'perf/prefill/alloc_wait_duration/min',
        'x/wall_time',
        'rollout/samples',
        'rollout/rows',
        'status/aborted',
        'perf/bytes',
      ].map((key) => [key, metricUnit(key)]),
    );
    expect(units).toEqual({
      'perf/prefill/transfer_speed_gb_s/mean': 'GB/s',
      'perf/prefill/transfer_total_mb/max': 'MB',
      'perf/Decode/Throughput/mean': 'tok/s',
      'perf/request/retry_count/max': 'count',
      'response_length/median': 'tokens',
      'reward/std': 'score',
      'groups/zero_variance_groups': 'groups',
      'rollout/wall_time_sec': 's',
      'perf/request/e2e_latency/mean': 's',
      'perf/request/queue_time/p99': 's',
      'perf/prefill/alloc_wait_duration/min': 's',
      'x/wall_time': 's',
      'rollout/samples': 'samples',
      'rollout/rows': 'samples',
      'status/aborted': 'samples',
      'perf/bytes': 'count',
    });
  });

  it('the first rule that fits wins; prefixes and suffixes are anchored', () => {
    expect(metricUnit('response_length/throughput')).toBe('tok/s');
    expect(metricUnit('reward/groups')).toBe('score');
    expect(metricUnit('groups/wall_time_sec')).toBe('groups');
    expect(metricUnit('rollout/samples_sec')).toBe('s');
    // not at the start or end: no unit from those rules
    expect(metricUnit('x/response_length')).toBe('count');
    expect(metricUnit('x/reward')).toBe('count');
    expect(metricUnit('perf/x_sec_total')).toBe('count');
    expect(metricUnit('perf/status/x')).toBe('count');
  });
});

describe('which way is better', () => {
  it('higher: throughput, speed, mean reward, completed', () => {
    for (const key of [
      'perf/decode/throughput/mean',
      'perf/prefill/transfer_speed_gb_s/max',
      'REWARD/mean',
      'status/completed',
    ])
      expect(metricDirection(key), key).toBe('higher-better');
  });

  it('lower: latency, queues, durations, wall time, waits, retries, bad statuses, idle, zero variance', () => {
    for (const key of [
      'perf/request/e2e_latency/mean',
      'perf/request/queue_time/mean',
      'row_duration/mean_sec',
      'rollout/wall_time_sec',
      'perf/x/wait/max',
      'perf/request/retry_count/max',
      'status/aborted',
      'status/failed',
      'status/truncated',
      'rollout/untraced_samples',
      'rollout/idle_between_attempts_sec',
      'groups/zero_variance_groups',
    ])
      expect(metricDirection(key), key).toBe('lower-better');
  });

  it('neither: counts, spread of reward', () => {
    expect(metricDirection('rollout/samples')).toBe('neutral');
    expect(metricDirection('reward/std')).toBe('neutral');
    expect(metricDirection('response_length/mean')).toBe('neutral');
  });
});

describe("a run's figures (train dump, request metrics)", () => {
  it('shares in %, log-prob differences in nats, ages in weight versions, per-token times in s', () => {
    expect(metricUnit('requests/prefix_cache_hit_pct')).toBe('%');
    expect(metricUnit('train/ratio_outside_pct')).toBe('%');
    expect(metricUnit('train/mismatch_mean_abs_dlogp')).toBe('nats');
    expect(metricUnit('staleness/token_mean_versions')).toBe('versions');
    expect(metricUnit('requests/decode_per_token_sec')).toBe('s');
    expect(metricUnit('requests/retractions')).toBe('count');
  });

  it('more cache hits are better; retractions, mismatch, staleness and slower tokens worse', () => {
    expect(metricDirection('requests/prefix_cache_hit_pct')).toBe('higher-better');
    for (const key of [
      'requests/decode_per_token_sec',
      'requests/retractions',
      'requests/retracted_pct',
      'train/mismatch_mean_abs_dlogp',
      'train/ratio_outside_pct',
      'staleness/stale_token_pct',
      'staleness/token_mean_versions',
    ])
      expect(metricDirection(key)).toBe('lower-better');
  });

  it('floors: 0.5 points, 0.001 nats, 0.01 versions, 10 µs per token', () => {
    expect(changeVerdict('requests/retracted_pct', 10, 10.4)).toBe('noise');
    expect(changeVerdict('requests/retracted_pct', 10, 11)).toBe('worse');
    expect(changeVerdict('train/mismatch_mean_abs_dlogp', 0.01, 0.0109)).toBe('noise');
    expect(changeVerdict('train/mismatch_mean_abs_dlogp', 0.01, 0.012)).toBe('worse');
    expect(changeVerdict('staleness/token_mean_versions', 0.1, 0.109)).toBe('noise');
    expect(changeVerdict('staleness/token_mean_versions', 0.1, 0.2)).toBe('worse');
    // 14 ms -> 17 ms per token is far below a time's 10 ms floor, and well beyond noise
    expect(changeVerdict('requests/decode_per_token_sec', 0.014, 0.017)).toBe('worse');
    expect(changeVerdict('requests/decode_per_token_sec', 0.0001, 0.000105)).toBe('noise');
  });
});

describe('relative change', () => {
  it('the change over |A|; none without both sides or when A is 0', () => {
    expect(relativeChange(10, 15)).toBe(0.5);
    expect(relativeChange(-4, -2)).toBe(0.5);
    expect(relativeChange(4, 2)).toBe(-0.5);
    expect(relativeChange(0, 1)).toBeNull();
    expect(relativeChange(null, 1)).toBeNull();
    expect(relativeChange(1, null)).toBeNull();
  });
});

describe('the noise rule', () => {
  it('is stated in words where it is shown', () => {
    expect(NOISE_RULE).toMatch(
      /^a change is coloured only when it is at least 5% of the larger side and at least 10 ms \(times; 10 µs per token\), 1 token, 1 sample, 1 tok\/s, 0\.01 reward, 0\.5 percentage points, 0\.001 nats \(log-prob differences\) or 0\.01 weight versions; smaller changes are noise$/,
    );
  });

  it('a side missing: none', () => {
    expect(changeVerdict('reward/mean', null, 1)).toBe('none');
    expect(changeVerdict('reward/mean', 1, null)).toBe('none');
  });

  it('the floor of each unit: exactly the floor counts, below it is noise whatever the %', () => {
    // tok/s, floor 1: 10 -> 11 is +10% and 1 tok/s
    expect(changeVerdict('perf/decode/throughput/mean', 10, 11)).toBe('better');
    expect(changeVerdict('perf/decode/throughput/mean', 10, 10.9)).toBe('noise');
    // s, floor 10 ms: +100% of 5 ms is noise, 0.1 -> 0.2 s is not
    expect(changeVerdict('perf/request/e2e_latency/mean', 0.005, 0.01)).toBe('noise');
    expect(changeVerdict('perf/request/e2e_latency/mean', 0.1, 0.2)).toBe('worse');
    // GB/s, floor 0.1
    expect(changeVerdict('perf/prefill/transfer_speed_gb_s/mean', 1, 1.09)).toBe('noise');
    expect(changeVerdict('perf/prefill/transfer_speed_gb_s/mean', 1, 1.5)).toBe('better');
    // MB, floor 1 (a neutral figure: changed)
    expect(changeVerdict('perf/prefill/transfer_total_mb/max', 10, 10.9)).toBe('noise');
    expect(changeVerdict('perf/prefill/transfer_total_mb/max', 10, 12)).toBe('changed');
    // tokens, samples, groups, count: floor 1
    expect(changeVerdict('response_length/mean', 2, 2.9)).toBe('noise');
    expect(changeVerdict('rollout/samples', 2, 2.9)).toBe('noise');
    expect(changeVerdict('groups/count', 2, 2.9)).toBe('noise');
    expect(changeVerdict('perf/request/retry_count/max', 2, 2.9)).toBe('noise');
    expect(changeVerdict('groups/count', 2, 3)).toBe('changed');
    // score, floor 0.01: 0.1 -> 0.109 is +9% but 0.009
    expect(changeVerdict('reward/mean', 0.1, 0.109)).toBe('noise');
    expect(changeVerdict('reward/mean', 0.25, 0.5)).toBe('better');
  });

  it('5% of the larger side counts, less is noise; from 0 any change beyond the floor counts', () => {
    // 5 of 105 is 4.8%: noise; 6 of 106 is 5.7%
    expect(changeVerdict('response_length/mean', 100, 105)).toBe('noise');
    expect(changeVerdict('response_length/mean', 100, 106)).toBe('changed');
    expect(changeVerdict('response_length/mean', 100, 95)).toBe('changed');
    expect(changeVerdict('status/aborted', 0, 3)).toBe('worse');
    // negative sides: -10 -> -9 is 10% of |-10|
    expect(changeVerdict('reward/mean', -10, -9)).toBe('better');
    expect(changeVerdict('reward/mean', -10, -9.6)).toBe('noise');
  });

  it('swapping A and B keeps a change in or out of the noise, its direction flipped', () => {
    const pairs: [string, number, number][] = [
      ['response_length/mean', 100, 105],
      ['response_length/mean', 100, 95],
      ['perf/request/e2e_latency/mean', 10, 8],
      ['reward/mean', -10, -9.6],
    ];
    const flip = { better: 'worse', worse: 'better', changed: 'changed', noise: 'noise' };
    for (const [key, a, b] of pairs) {
      const there = changeVerdict(key, a, b) as keyof typeof flip;
      expect(changeVerdict(key, b, a), `${key} ${a} ${b}`).toBe(flip[there]);
    }
  });

  it('the direction colours a change: falling latency better, falling throughput worse', () => {
    expect(changeVerdict('perf/request/e2e_latency/mean', 10, 8)).toBe('better');
    expect(changeVerdict('perf/request/e2e_latency/mean', 8, 10)).toBe('worse');
    expect(changeVerdict('perf/decode/throughput/mean', 100, 80)).toBe('worse');
    expect(changeVerdict('rollout/samples', 10, 20)).toBe('changed');
  });
});
