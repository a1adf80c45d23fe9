import { describe, expect, it } from 'vitest';
import { extraStats } from '../../../src-main/core/compare/run-extra-figures';
import type { TrendsResult } from '../../../src-main/core/model/trend';
import { withRunExtra } from '../../../src-main/core/run/trend-run-extra';
import {
  chartFromZero,
  extraMetrics,
  metricGroup,
  metricLabel,
  metricNote,
  withExtraFigures,
} from '../../../src-renderer/trends/trend-metrics';
import { EXPECTED_EXTRA } from '../../support/run-extra-expected';
import { openRun } from '../../support/run-extra-run';

// The trends view's metrics from a run's figures: each rollout's train dump and request metrics
// (the run's joins, as openTrends answers them) under compare's keys, with their units, labels
// and groups; a point without them gets none.
const { joins, side } = openRun();
const plain: TrendsResult = {
  points: [0, 1].map((id) => ({
    path: `/run/file${id}`,
    name: `rollout_${id}.pt`,
    series: 'rollout' as const,
    rolloutId: id,
    figures: { 'rollout/samples': 32 },
  })),
  incomplete: [],
  skipped: [],
  cached: 0,
  units: { 'rollout/samples': '' },
};
const shown = withExtraFigures(withRunExtra(plain, joins, (file) => `/run/file${file}`));

describe("the trends view's run figures", () => {
  it("are compare's figures of the same rollout, key for key, and expected_extra.json's", () => {
    ['train_0.pt', 'train_1.pt'].forEach((name, k) => {
      const { figures } = shown.points[k];
      // compare's table, less the decode time per token (made from the samples, not the rollout)
      const compared = extraStats(side(k).extra!);
      delete compared['requests/decode_per_token_sec'];
      expect(Object.keys(compared).length).toBe(9);
      for (const [key, value] of Object.entries(compared)) expect(figures[key], key).toBe(value);
      const want = EXPECTED_EXTRA.train.files[name];
      expect(figures['train/mismatch_mean_abs_dlogp']).toBeCloseTo(
        want.token_weighted.mean_abs_dlogp,
        9,
      );
      expect(figures['train/mismatch_mean_ratio']).toBeCloseTo(want.token_weighted.mean_ratio, 9);
      expect(figures['train/ratio_outside_pct']).toBeCloseTo(
        100 * want.token_weighted['share_ratio_outside_0.5_2'],
        9,
      );
      // run_extra/README.md: 1115 / 823 and 925 / 1059 loss-masked tokens per DP rank
      const ranks = Object.values(want.loss_masked_tokens_per_dp_rank);
      const mean = ranks.reduce((a, b) => a + b, 0) / ranks.length;
      expect(figures['train/dp_rank_tokens_max_over_mean']).toBeCloseTo(
        Math.max(...ranks) / mean,
        12,
      );
      expect(metricNote('train/dp_rank_tokens_max_over_mean', shown.points[k])).toBe(
        `tokens per DP rank: ${ranks.join(' / ')}`,
      );
      // every cached token came from the device (expected_extra.json: 0 host hits)
      expect(figures['requests/prefix_cache_hit_device_pct']).toBe(
        figures['requests/prefix_cache_hit_pct'],
      );
      expect(figures['requests/prefix_cache_hit_host_pct']).toBe(0);
      expect(figures['staleness/stale_samples']).toBe(0);
    });
  });

  it('each has its unit, its words and its group; ratios around 1 are not charted from 0', () => {
    const keys = extraMetrics(shown.points);
    expect(keys).toHaveLength(14);
    expect(shown.units['train/mismatch_mean_abs_dlogp']).toBe('nats');
    expect(shown.units['staleness/token_mean_versions']).toBe('versions');
    expect(shown.units['requests/prefix_cache_hit_pct']).toBe('%');
    expect(shown.units['rollout/samples']).toBe('');
    for (const key of keys) {
      expect(shown.units[key], key).toBeDefined();
      expect(metricLabel(key), key).not.toContain('_');
      expect(['train / inference', 'staleness', 'request metrics']).toContain(metricGroup(key));
    }
    expect(metricLabel('train/mismatch_mean_abs_dlogp')).toBe('mean |Δ log p|');
    expect(chartFromZero('train/mismatch_mean_ratio')).toBe(false);
    expect(chartFromZero('train/mismatch_mean_abs_dlogp')).toBe(true);
  });

  it('a run without train dumps or request metrics: no such metric, the points as they were', () => {
    const without = withExtraFigures(plain);
    expect(without).toEqual(plain);
    expect(extraMetrics(without.points)).toEqual([]);
    expect(metricNote('train/dp_rank_tokens_max_over_mean', without.points[0])).toBeNull();
  });
});
