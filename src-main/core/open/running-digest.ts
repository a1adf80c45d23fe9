import type { PerfView, RunningDigest, RunningSummary } from '../model/perf';

type RunningPoint = PerfView['running'][number];

/** Columns the reduced curve keeps: wider than any chart of it (a 4k screen's width). */
export const RUNNING_COLUMNS = 4096;

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
 * The curve cut into `columns` equal time columns; each keeps its first, lowest, highest and
 * last step in time order. A chart at most `columns` wide draws the same picture from it as
 * from every step (100k samples make 200k steps, 3 MB as typed arrays); a curve with no more
 * steps than that is kept whole.
 */
export function buildRunningDigest(
  running: RunningPoint[],
  columns = RUNNING_COLUMNS,
): RunningDigest {
  const summary = summariseRunning(running);
  const whole = running.length <= columns * 4 || !(summary.endSec > 0);
  const keep = whole ? allIndexes(running.length) : reduced(running, columns, summary.endSec);
  const tSec = new Float64Array(keep.length);
  const counts = new Int32Array(keep.length);
  keep.forEach((index, i) => {
    tSec[i] = running[index].tSec;
    counts[i] = running[index].running;
  });
  return { tSec, running: counts, steps: running.length, summary };
}

function allIndexes(n: number): number[] {
  return Array.from({ length: n }, (_, i) => i);
}

function reduced(running: RunningPoint[], columns: number, endSec: number): number[] {
  const keep: number[] = [];
  const columnOf = (t: number) => Math.min(columns - 1, Math.floor((t / endSec) * columns));
  let i = 0;
  while (i < running.length) {
    const column = columnOf(running[i].tSec);
    let low = i;
    let high = i;
    let j = i + 1;
    for (; j < running.length && columnOf(running[j].tSec) === column; j++) {
      if (running[j].running < running[low].running) low = j;
      if (running[j].running > running[high].running) high = j;
    }
    // first, lowest, highest, last: in time order, each once
    const picked = [...new Set([i, low, high, j - 1])].sort((x, y) => x - y);
    keep.push(...picked);
    i = j;
  }
  return keep;
}
