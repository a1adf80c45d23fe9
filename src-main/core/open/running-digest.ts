import type { RunningCurve, RunningDigest, RunningSummary } from '../model/perf';

/** Columns the reduced curve keeps: wider than any chart of it (a 4k screen's width). */
export const RUNNING_COLUMNS = 4096;

/** Peak, end and long tail of a running-samples step function (points in time order). */
export function summariseRunning(curve: RunningCurve): RunningSummary {
  const { tSec, running } = curve;
  let peak = 0;
  let peakAtSec = 0;
  let endSec = 0;
  for (let i = 0; i < tSec.length; i++) {
    if (running[i] > peak) {
      peak = running[i];
      peakAtSec = tSec[i];
    }
    if (tSec[i] > endSec) endSec = tSec[i];
  }
  let tailStartSec: number | null = null;
  let tailMax = 0;
  for (let i = tSec.length - 1; i >= 0; i--) {
    if (running[i] * 2 >= peak) break;
    tailStartSec = tSec[i];
    if (running[i] > tailMax) tailMax = running[i];
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
 * The curve cut into `columns` equal time columns; each keeps its first, lowest, highest and
 * last step in time order. A chart at most `columns` wide draws the same picture from it as
 * from every step (100k samples make 200k steps, 3 MB as typed arrays); a curve with no more
 * steps than that is kept whole.
 */
export function buildRunningDigest(curve: RunningCurve, columns = RUNNING_COLUMNS): RunningDigest {
  const summary = summariseRunning(curve);
  const steps = curve.tSec.length;
  if (steps <= columns * 4 || !(summary.endSec > 0))
    return { tSec: curve.tSec.slice(), running: curve.running.slice(), steps, summary };
  const keep = reduced(curve, columns, summary.endSec);
  const tSec = new Float64Array(keep.length);
  const counts = new Int32Array(keep.length);
  keep.forEach((index, i) => {
    tSec[i] = curve.tSec[index];
    counts[i] = curve.running[index];
  });
  return { tSec, running: counts, steps, summary };
}

function reduced(curve: RunningCurve, columns: number, endSec: number): number[] {
  const { tSec, running } = curve;
  const keep: number[] = [];
  const columnOf = (t: number) => Math.min(columns - 1, Math.floor((t / endSec) * columns));
  let i = 0;
  while (i < tSec.length) {
    const column = columnOf(tSec[i]);
    let low = i;
    let high = i;
    let j = i + 1;
    for (; j < tSec.length && columnOf(tSec[j]) === column; j++) {
      if (running[j] < running[low]) low = j;
      if (running[j] > running[high]) high = j;
    }
    // first, lowest, highest, last: in time order, each once
    const picked = [...new Set([i, low, high, j - 1])].sort((x, y) => x - y);
    keep.push(...picked);
    i = j;
  }
  return keep;
}
