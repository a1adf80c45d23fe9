/**
 * Units of compared figures, and when a change between A and B counts as more than noise.
 * One rule for the CLI and the app, stated where it is shown (NOISE_RULE).
 */

export type MetricUnit =
  | 's'
  | 'tok/s'
  | 'GB/s'
  | 'MB'
  | 'tokens'
  | 'samples'
  | 'groups'
  | 'count'
  | 'score'
  | '%'
  | 'nats'
  | 'versions';

export function metricUnit(key: string): MetricUnit {
  const k = key.toLowerCase();
  // a run's figures (core/compare/run-extra-figures.ts): shares, log-prob differences, ages
  if (k.endsWith('_pct')) return '%';
  if (k.endsWith('_dlogp')) return 'nats';
  if (k.endsWith('_versions')) return 'versions';
  if (k.includes('transfer_speed_gb_s')) return 'GB/s';
  if (k.includes('transfer_total_mb')) return 'MB';
  if (k.includes('throughput')) return 'tok/s';
  if (k.includes('retry_count')) return 'count';
  if (k.startsWith('response_length')) return 'tokens';
  if (k.startsWith('reward')) return 'score';
  if (k.includes('groups')) return 'groups';
  if (/_sec$|latency|queue_time|duration|wall_time/.test(k)) return 's';
  if (/samples|rows|^status\//.test(k)) return 'samples';
  return 'count';
}

/** the smallest change worth a colour, per unit: below it a change is noise whatever its % */
const NOISE_FLOOR: Record<MetricUnit, number> = {
  s: 0.01,
  'tok/s': 1,
  'GB/s': 0.1,
  MB: 1,
  tokens: 1,
  samples: 1,
  groups: 1,
  count: 1,
  score: 0.01,
  '%': 0.5,
  nats: 0.001,
  versions: 0.01,
};
const NOISE_RELATIVE = 0.05;
const PER_TOKEN_FLOOR = 1e-5;

export const NOISE_RULE =
  'a change is coloured only when it is at least 5% of the larger side and at least 10 ms (times; 10 µs per token), 1 token, 1 sample, ' +
  '1 tok/s, 0.01 reward, 0.5 percentage points, 0.001 nats (log-prob differences) or 0.01 weight versions; ' +
  'smaller changes are noise';

export function metricDirection(key: string): 'higher-better' | 'lower-better' | 'neutral' {
  const k = key.toLowerCase();
  if (/throughput|speed|reward\/mean|completed|cache_hit/.test(k)) return 'higher-better';
  if (
    /latency|queue|duration|wall_time|wait|retry|aborted|failed|truncated|untraced|idle|zero_variance|per_token_sec|retract|mismatch|ratio_outside|stale/.test(
      k,
    )
  ) {
    return 'lower-better';
  }
  return 'neutral';
}

export type ChangeVerdict = 'better' | 'worse' | 'changed' | 'noise' | 'none';

export function relativeChange(a: number | null, b: number | null): number | null {
  if (a === null || b === null || a === 0) return null;
  return (b - a) / Math.abs(a);
}

/** better/worse (or changed, for neutral figures) only beyond noise; 'none' when a side is missing */
export function changeVerdict(key: string, a: number | null, b: number | null): ChangeVerdict {
  if (a === null || b === null) return 'none';
  const delta = b - a;
  // a time per token is a time a thousand tokens over: its floor a thousandth of 10 ms
  const floor = key.endsWith('per_token_sec') ? PER_TOKEN_FLOOR : NOISE_FLOOR[metricUnit(key)];
  if (Math.abs(delta) < floor) return 'noise';
  // relative to the larger side, so swapping A and B keeps a change in or out of the noise
  if (Math.abs(delta) / Math.max(Math.abs(a), Math.abs(b)) < NOISE_RELATIVE) return 'noise';
  const direction = metricDirection(key);
  if (direction === 'neutral') return 'changed';
  return delta > 0 === (direction === 'higher-better') ? 'better' : 'worse';
}
