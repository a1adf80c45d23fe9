/**
 * Whether a bigger value of a metric is better, worse, or neither: colours the change in the
 * compare table. Latencies, queues and durations should shrink; throughput and reward grow.
 */
export function metricDirection(key: string): 'higher-better' | 'lower-better' | 'neutral' {
  const k = key.toLowerCase();
  if (/throughput|speed|reward|transfer_speed|completed/.test(k)) return 'higher-better';
  if (/latency|queue|duration|wall_time|wait|retry|aborted|failed|truncated|untraced/.test(k)) {
    return 'lower-better';
  }
  return 'neutral';
}

export type ChangeVerdict = 'better' | 'worse' | 'same' | 'neutral';

/** The verdict on going from a to b; changes under 0.5% are "same". */
export function changeVerdict(key: string, a: number | null, b: number | null): ChangeVerdict {
  if (a === null || b === null) return 'neutral';
  const scale = Math.max(Math.abs(a), Math.abs(b));
  if (scale === 0 || Math.abs(b - a) / scale < 0.005) return 'same';
  const direction = metricDirection(key);
  if (direction === 'neutral') return 'neutral';
  const grew = b > a;
  return grew === (direction === 'higher-better') ? 'better' : 'worse';
}

export function relativeChange(a: number | null, b: number | null): number | null {
  if (a === null || b === null || a === 0) return null;
  return (b - a) / Math.abs(a);
}
