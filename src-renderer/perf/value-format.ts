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
    // ticks fall on round seconds: 1m10s, not 1.17m
    if (abs >= 3600) return clockUnits(value, 3600, 'h', 60, 'm');
    if (abs >= 60) return clockUnits(value, 60, 'm', 1, 's');
    if (abs >= 1) return `${short(value)}s`;
    if (abs >= 1e-3) return `${short(value * 1e3)}ms`;
    return `${short(value * 1e6)}µs`;
  }
  if (Math.abs(value) >= 1000) return `${Number((value / 1000).toPrecision(3))}k`;
  return String(Number(value.toPrecision(3)));
}

/** 4200 s as "1h10m", 70 s as "1m10s"; the smaller unit rounded, left out when zero. */
function clockUnits(value: number, big: number, bigUnit: string, small: number, smallUnit: string) {
  const sign = value < 0 ? '-' : '';
  const totalSmall = Math.round(Math.abs(value) / small);
  const perBig = big / small;
  const whole = Math.floor(totalSmall / perBig);
  const rest = totalSmall - whole * perBig;
  return `${sign}${whole}${bigUnit}${rest === 0 ? '' : `${rest}${smallUnit}`}`;
}
