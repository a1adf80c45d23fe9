import type { RunRolloutFigures } from './run-extra';

/** A rollout's run figures, as a trend point carries them (any may be missing). */
type RolloutExtra = Partial<
  Pick<RunRolloutFigures, 'mismatch' | 'staleness' | 'requestMetrics' | 'tokensPerDpRank'>
>;

/**
 * One rollout's run figures under compare's keys (docs/run-extra.md): prefix-cache hits and
 * retractions (request metrics), train/inference mismatch (train dump) and verl's token
 * staleness. Shares are percentages (`_pct`), log-prob differences nats; a figure whose file the
 * run lacks has none of its keys. Compare's figures table and the trends view both use these.
 */
export function rolloutExtraStats(rollout: RolloutExtra): Record<string, number> {
  const stats: Record<string, number> = {};
  const { requestMetrics: requests, mismatch, staleness } = rollout;
  if (requests) {
    if (requests.cacheHitRate !== null)
      stats['requests/prefix_cache_hit_pct'] = requests.cacheHitRate * 100;
    // over the records that tell their retractions; none does (an older sglang): no figure
    if (requests.retractions !== null && requests.retractedRecords !== null) {
      stats['requests/retractions'] = requests.retractions;
      stats['requests/retracted_pct'] =
        (requests.retractedRecords / requests.retractionRecords) * 100;
    }
  }
  if (mismatch) {
    stats['train/mismatch_mean_abs_dlogp'] = mismatch.meanAbsDelta;
    stats['train/mismatch_max_abs_dlogp'] = mismatch.maxAbsDelta;
    stats['train/ratio_outside_pct'] = mismatch.outsideShare * 100;
  }
  if (staleness) {
    stats['staleness/token_mean_versions'] = staleness.mean;
    stats['staleness/token_max_versions'] = staleness.max;
    stats['staleness/stale_token_pct'] = staleness.staleFraction * 100;
  }
  return stats;
}

/**
 * What the trends view plots of a rollout's run figures: compare's keys, and beside them the
 * mean importance ratio, the prefix-cache hits from device and host memory and from HiCache's
 * storage tier (shares of the prompt tokens), the samples with a stale token, and the trainer's DP load balance (the most
 * loss-masked tokens on one DP rank over the ranks' mean: 1 is even).
 */
export function trendExtraFigures(rollout: RolloutExtra): Record<string, number> {
  const figures = rolloutExtraStats(rollout);
  const { requestMetrics: requests, mismatch, staleness, tokensPerDpRank: ranks } = rollout;
  if (mismatch) figures['train/mismatch_mean_ratio'] = mismatch.meanRatio;
  if (requests && requests.promptTokens > 0) {
    figures['requests/prefix_cache_hit_device_pct'] =
      (requests.cachedDevice / requests.promptTokens) * 100;
    figures['requests/prefix_cache_hit_host_pct'] =
      (requests.cachedHost / requests.promptTokens) * 100;
    // HiCache's storage tier: only a server with one tells it (others have no such key)
    if (requests.cachedStorage > 0)
      figures['requests/prefix_cache_hit_storage_pct'] =
        (requests.cachedStorage / requests.promptTokens) * 100;
  }
  if (staleness) figures['staleness/stale_samples'] = staleness.staleSamples;
  const tokens = (ranks ?? []).map((r) => r.tokens);
  const mean = tokens.reduce((a, b) => a + b, 0) / tokens.length;
  if (tokens.length > 0 && mean > 0)
    figures['train/dp_rank_tokens_max_over_mean'] = Math.max(...tokens) / mean;
  return figures;
}

/** The unit of each key trendExtraFigures gives ('' for counts and ratios). */
export const TREND_EXTRA_UNITS: Record<string, string> = {
  'requests/prefix_cache_hit_pct': '%',
  'requests/prefix_cache_hit_device_pct': '%',
  'requests/prefix_cache_hit_host_pct': '%',
  'requests/prefix_cache_hit_storage_pct': '%',
  'requests/retractions': '',
  'requests/retracted_pct': '%',
  'train/mismatch_mean_abs_dlogp': 'nats',
  'train/mismatch_max_abs_dlogp': 'nats',
  'train/mismatch_mean_ratio': '',
  'train/ratio_outside_pct': '%',
  'train/dp_rank_tokens_max_over_mean': '',
  'staleness/token_mean_versions': 'versions',
  'staleness/token_max_versions': 'versions',
  'staleness/stale_token_pct': '%',
  'staleness/stale_samples': '',
};
