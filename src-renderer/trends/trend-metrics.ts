import type { TrendPoint } from '../../src-main/core/model/trend';

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
];

/** A figure key in words: `perf/request/e2e_latency/median` -> `e2e latency p50`. */
export function metricLabel(key: string): string {
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
  const order = ['rollout', 'requests', 'samples', 'prefill (PD)', 'decode (PD)'];
  return order
    .filter((group) => groups.has(group))
    .map((group) => ({ group, keys: groups.get(group)!.sort() }));
}
