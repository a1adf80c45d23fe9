import { formatDuration } from '../details/format-values';

/** A value with its unit: seconds as durations, the rest with 3 significant digits. */
export function formatValue(value: number, unit: string): string {
  if (!Number.isFinite(value)) return '—';
  if (unit === 's') return formatDuration(value);
  const text = Math.abs(value) >= 1000 ? value.toFixed(0) : String(Number(value.toPrecision(3)));
  return unit ? `${text} ${unit}` : text;
}

/** Axis ticks: as short as the axis is narrow (no unit; the chart title carries it). */
export function formatAxisValue(value: number, unit: string): string {
  if (unit === 's') {
    const abs = Math.abs(value);
    const short = (v: number) => String(Number(v.toPrecision(3)));
    if (abs === 0) return '0';
    if (abs >= 60) return `${short(value / 60)}m`;
    if (abs >= 1) return `${short(value)}s`;
    if (abs >= 1e-3) return `${short(value * 1e3)}ms`;
    return `${short(value * 1e6)}µs`;
  }
  if (Math.abs(value) >= 1000) return `${Number((value / 1000).toPrecision(3))}k`;
  return String(Number(value.toPrecision(3)));
}

export interface SeriesStats {
  count: number;
  min: number;
  max: number;
  mean: number;
  /** numpy's median (mean of the two middle values), as slime computes it */
  median: number;
  /** linear interpolation between closest ranks, numpy's default */
  p90: number;
  total: number;
}

/** Count, mean, median, p90 and extremes of the finite values; null when there are none. */
export function seriesStats(values: ArrayLike<number>): SeriesStats | null {
  const sorted: number[] = [];
  for (let i = 0; i < values.length; i++) if (Number.isFinite(values[i])) sorted.push(values[i]);
  if (sorted.length === 0) return null;
  sorted.sort((a, b) => a - b);
  let total = 0;
  for (const v of sorted) total += v;
  const n = sorted.length;
  return {
    count: n,
    min: sorted[0],
    max: sorted[n - 1],
    mean: total / n,
    median: quantile(sorted, 0.5),
    p90: quantile(sorted, 0.9),
    total,
  };
}

function quantile(sorted: number[], q: number): number {
  const pos = (sorted.length - 1) * q;
  const lo = Math.floor(pos);
  const hi = Math.ceil(pos);
  return sorted[lo] + (sorted[hi] - sorted[lo]) * (pos - lo);
}
