import type { RunningDigest } from '../../src-main/core/api/trace-api';
import { lastAtOrBefore } from '../../src-main/core/model/sorted-search';

/** The curve's points (the worker reduced them to chart resolution and summarised every step). */
export type RunningCurve = Pick<RunningDigest, 'tSec' | 'running'>;

/**
 * An SVG path of the step function, at most ~2 points per pixel column: each column keeps its
 * max so no peak is lost.
 */
export function runningPath(
  curve: RunningCurve,
  x: (tSec: number) => number,
  y: (count: number) => number,
): string {
  const { tSec, running } = curve;
  const n = tSec.length;
  if (n === 0) return '';
  const f = (v: number) => v.toFixed(1);
  let d = `M${f(x(tSec[0]))},${f(y(0))}`;
  let i = 0;
  while (i < n) {
    const column = Math.round(x(tSec[i]));
    let max = running[i];
    let last = max;
    let j = i + 1;
    for (; j < n && Math.round(x(tSec[j])) === column; j++) {
      if (running[j] > max) max = running[j];
      last = running[j];
    }
    d += `H${f(x(tSec[i]))}`;
    if (max !== last) d += `V${f(y(max))}`;
    d += `V${f(y(last))}`;
    i = j;
  }
  return d;
}

/** Running count at a time: the last step at or before it (binary search, points in order). */
export function countAt(curve: RunningCurve, at: number): number {
  const step = lastAtOrBefore(curve.tSec, at);
  return step < 0 ? 0 : curve.running[step];
}
