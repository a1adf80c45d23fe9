import type { PerfView } from '../../src-main/core/api/trace-api';

export type RunningPoint = PerfView['running'][number];

export interface RunningSummary {
  peak: number;
  peakAtSec: number;
  endSec: number;
  /**
   * Where the long tail starts: the last time the running count dropped below half its peak.
   * From there to the end, at most `tailMax` samples run (the stragglers).
   */
  tailStartSec: number | null;
  tailMax: number;
  /** the tail's share of the rollout's wall time */
  tailShare: number;
}

/** Peak, end and long tail of a running-samples step function (points in time order). */
export function summariseRunning(running: RunningPoint[]): RunningSummary {
  let peak = 0;
  let peakAtSec = 0;
  let endSec = 0;
  for (const p of running) {
    if (p.running > peak) {
      peak = p.running;
      peakAtSec = p.tSec;
    }
    if (p.tSec > endSec) endSec = p.tSec;
  }
  let tailStartSec: number | null = null;
  let tailMax = 0;
  for (let i = running.length - 1; i >= 0; i--) {
    const p = running[i];
    if (p.running * 2 >= peak) break;
    tailStartSec = p.tSec;
    if (p.running > tailMax) tailMax = p.running;
  }
  // a tail that starts at the very end is no tail: everything stopped together
  if (tailStartSec !== null && tailStartSec >= endSec) tailStartSec = null;
  const tailShare = tailStartSec !== null && endSec > 0 ? (endSec - tailStartSec) / endSec : 0;
  return {
    peak,
    peakAtSec,
    endSec,
    tailStartSec,
    tailMax: tailStartSec === null ? 0 : tailMax,
    tailShare,
  };
}

/**
 * An SVG path of the step function, at most ~2 points per pixel column: with 100k samples the
 * running series has 200k steps, more than a path should carry. Each column keeps its max so
 * no peak is lost.
 */
export function runningPath(
  running: RunningPoint[],
  x: (tSec: number) => number,
  y: (count: number) => number,
): string {
  const n = running.length;
  if (n === 0) return '';
  const f = (v: number) => v.toFixed(1);
  let d = `M${f(x(running[0].tSec))},${f(y(0))}`;
  let i = 0;
  while (i < n) {
    const column = Math.round(x(running[i].tSec));
    let max = running[i].running;
    let last = max;
    let j = i + 1;
    for (; j < n && Math.round(x(running[j].tSec)) === column; j++) {
      if (running[j].running > max) max = running[j].running;
      last = running[j].running;
    }
    d += `H${f(x(running[i].tSec))}`;
    if (max !== last) d += `V${f(y(max))}`;
    d += `V${f(y(last))}`;
    i = j;
  }
  return d;
}
