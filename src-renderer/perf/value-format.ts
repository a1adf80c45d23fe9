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
