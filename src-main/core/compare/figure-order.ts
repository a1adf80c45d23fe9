import type { CompareFigure } from '../api/trace-api';
import { metricUnit } from './metric-change';

/**
 * The figures table's order: changes beyond noise first, then figures one side lacks, then the
 * small changes (noise) under their fold; inside each, times by how many seconds moved (their
 * effect on wall time), then the other figures by how much they moved relative to the larger
 * side. Every key is symmetric in A and B, so swapping the files keeps the order.
 */
export function byEffect(x: CompareFigure, y: CompareFigure): number {
  return (
    tier(x) - tier(y) ||
    timeFirst(x) - timeFirst(y) ||
    size(y) - size(x) ||
    x.key.localeCompare(y.key)
  );
}

/** 0 beyond noise, 1 a side missing, 2 small (noise, or no change at all) */
function tier(f: CompareFigure): number {
  if (f.verdict === 'better' || f.verdict === 'worse' || f.verdict === 'changed') return 0;
  return f.verdict === 'none' ? 1 : 2;
}

function timeFirst(f: CompareFigure): number {
  return metricUnit(f.key) === 's' ? 0 : 1;
}

function size(f: CompareFigure): number {
  if (f.a === null || f.b === null) return -1;
  const delta = Math.abs(f.b - f.a);
  if (metricUnit(f.key) === 's') return delta;
  const larger = Math.max(Math.abs(f.a), Math.abs(f.b));
  return larger === 0 ? 0 : delta / larger;
}

/** Whether a figure sits under the "small changes" fold. */
export function isSmallChange(f: CompareFigure): boolean {
  return tier(f) === 2;
}
