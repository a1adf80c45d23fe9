import { formatValue } from './value-format';

/**
 * Parts under this share of the window are left out: where two spans of the bounding sample
 * touch, their epoch-second times differ by float residue, and "generation 0.95 µs" beside
 * "decode 1.53 min" said nothing of where the time went.
 */
const LEAST_SHARE = 0.001;

/** What kept the rollout open, as the perf view says it: the largest part first. */
export function keptOpenText(seconds: Readonly<Record<string, number>>): string {
  const parts = Object.entries(seconds).filter(([, sec]) => sec > 0);
  const total = parts.reduce((sum, [, sec]) => sum + sec, 0);
  return parts
    .filter(([, sec]) => sec >= total * LEAST_SHARE)
    .sort((x, y) => y[1] - x[1])
    .map(([category, sec]) => `${category} ${formatValue(sec, 's')}`)
    .join(', ');
}
