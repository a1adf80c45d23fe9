import type { TrendPoint, TrendsResult } from '../../src-main/core/model/trend';
import {
  TREND_EXTRA_UNITS,
  trendExtraFigures,
} from '../../src-main/core/model/rollout-extra-stats';

/** Shown first, when the run has them: what RL engineers watch across a run. */
export const DEFAULT_METRICS = [
  'rollout/wall_time_sec',
  'rollout/straggler_tail_share_pct',
  'perf/request/e2e_latency/median',
  'perf/request/e2e_latency/p90',
  'perf/decode/throughput/mean',
  'reward/mean',
  'response_length/mean',
  'status/aborted',
  'groups/zero_variance',
  // a run with train dumps: the train/inference mismatch
  'train/mismatch_mean_abs_dlogp',
];

/** The run's figures (train dumps, request metrics) in words: compare's keys are terse. */
const EXTRA_LABELS: Record<string, string> = {
  'train/mismatch_mean_abs_dlogp': 'mean |Δ log p|',
  'train/mismatch_max_abs_dlogp': 'max |Δ log p|',
  'train/mismatch_mean_ratio': 'mean importance ratio',
  'train/ratio_outside_pct': 'tokens with ratio outside [0.5, 2]',
  'train/dp_rank_tokens_max_over_mean': 'DP-rank tokens max/mean',
  'staleness/token_mean_versions': 'token staleness mean',
  'staleness/token_max_versions': 'token staleness max',
  'staleness/stale_token_pct': 'stale tokens',
  'staleness/stale_samples': 'samples with a stale token',
  'requests/prefix_cache_hit_pct': 'prefix-cache hit',
  'requests/prefix_cache_hit_device_pct': 'prefix-cache hit, device',
  'requests/prefix_cache_hit_host_pct': 'prefix-cache hit, host',
  'requests/prefix_cache_hit_storage_pct': 'prefix-cache hit, storage',
  'requests/retractions': 'retractions',
  'requests/retracted_pct': 'requests retracted',
};

/**
 * The trends with each point's run figures (its train dumps' and request metrics', as openTrends
 * answers them) among its figures, under compare's keys, and their units: a run's figures are
 * picked, charted and tabled as the dump's own are. A point without them gets none.
 */
export function withExtraFigures(result: TrendsResult): TrendsResult {
  const units = { ...result.units };
  const points = result.points.map((point) => {
    const extra = trendExtraFigures(point);
    for (const key of Object.keys(extra)) units[key] = TREND_EXTRA_UNITS[key] ?? '';
    return { ...point, figures: { ...point.figures, ...extra } };
  });
  return { ...result, points, units };
}

/** The keys withExtraFigures adds that some point has, in the picker's order. */
export function extraMetrics(points: TrendPoint[]): string[] {
  return Object.keys(EXTRA_LABELS).filter((key) => points.some((p) => key in p.figures));
}

/** Ratios whose moves around 1 are the point: charted on an axis that need not start at 0. */
const AROUND_ONE = new Set(['train/mismatch_mean_ratio', 'train/dp_rank_tokens_max_over_mean']);

/** Whether a figure's chart starts its y axis at 0. */
export function chartFromZero(key: string): boolean {
  return !AROUND_ONE.has(key);
}

/** More to say of a point on hover: each DP rank's loss-masked tokens beside their balance. */
export function metricNote(key: string, point: TrendsResult['points'][number]): string | null {
  if (key !== 'train/dp_rank_tokens_max_over_mean' || !point.tokensPerDpRank) return null;
  return `tokens per DP rank: ${dpRankTokens(point)}`;
}

/** `1115 / 823`: loss-masked tokens on DP rank 0, 1, ... */
export function dpRankTokens(point: TrendsResult['points'][number]): string {
  return (point.tokensPerDpRank ?? []).map((r) => r.tokens).join(' / ');
}

/** A figure key in words: `perf/request/e2e_latency/median` -> `e2e latency p50`. */
export function metricLabel(key: string): string {
  const extra = EXTRA_LABELS[key];
  if (extra) return extra;
  const parts = key.replace(/^perf\/(request\/)?/, '').split('/');
  const last = parts[parts.length - 1];
  const stat = last === 'median' ? 'p50' : last;
  const head = parts.slice(0, -1).join(' ');
  const words = `${head} ${stat}`
    .replace(/_sec\b/, '')
    .replace(/_/g, ' ')
    .trim();
  return key.startsWith('rollout/') ? words.replace(/^rollout /, '') : words;
}

/** The group a figure is listed under in the metric picker. */
export function metricGroup(key: string): string {
  if (key.startsWith('perf/request/')) return 'requests';
  if (key.startsWith('perf/prefill/')) return 'prefill (PD)';
  if (key.startsWith('perf/decode/throughput')) return 'requests';
  if (key.startsWith('perf/decode/')) return 'decode (PD)';
  if (key.startsWith('reward/') || key.startsWith('response_length/')) return 'samples';
  if (key.startsWith('status/') || key.startsWith('groups/')) return 'samples';
  if (key.startsWith('train/')) return 'train / inference';
  if (key.startsWith('staleness/')) return 'staleness';
  if (key.startsWith('requests/')) return 'request metrics';
  return 'rollout';
}

/** Every figure some point has, grouped for the picker, in a stable order. */
export function availableMetrics(points: TrendPoint[]): { group: string; keys: string[] }[] {
  const keys = new Set<string>();
  for (const point of points) for (const key of Object.keys(point.figures)) keys.add(key);
  const groups = new Map<string, string[]>();
  for (const key of keys) {
    const group = metricGroup(key);
    const list = groups.get(group) ?? [];
    list.push(key);
    groups.set(group, list);
  }
  const order = [
    'rollout',
    'requests',
    'samples',
    'train / inference',
    'staleness',
    'request metrics',
    'prefill (PD)',
    'decode (PD)',
  ];
  return order
    .filter((group) => groups.has(group))
    .map((group) => ({ group, keys: groups.get(group)!.sort() }));
}
