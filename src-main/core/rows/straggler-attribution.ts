import type { PackedRow } from '../model/row';
import type { StragglerAttribution, TimeWindow } from '../model/rollout-figures';
import { WorkEnds } from './sample-work';
import { stragglerSentence } from '../model/straggler-sentence';

/** The tail we name: the last tenth of the samples to finish (at least one). */
const TAIL_SHARE = 0.1;

/**
 * "The last k samples (x%) kept the rollout open for y% of its wall time": from the moment
 * every other sample had finished its own work to the window's end, only these k ran.
 */
export function buildStragglerAttribution(
  rows: PackedRow[],
  window: TimeWindow,
  globalStartSec: number,
  workEnds = new WorkEnds(rows),
): StragglerAttribution | null {
  const n = rows.length;
  if (n === 0 || window.durationSec <= 0) return null;
  const from = globalStartSec + window.startSec;
  const ends = new Float64Array(n);
  for (let r = 0; r < n; r++) ends[r] = workEnds.of(r, from) - globalStartSec;
  const k = Math.max(1, Math.ceil(n * TAIL_SHARE));
  // the ends in order as numbers (no comparator, no object per row), then only the tail's rows
  // ordered by end and id: the samples ending at or after the tail's first end
  const sorted = Float64Array.from(ends).sort();
  // (an end that is not a number, which typed arrays sort last: every row is ordered as before)
  const tailFrom = Number.isNaN(sorted[n - 1]) ? -Infinity : sorted[n - k];
  const byEnd: { rowId: number; end: number }[] = [];
  for (let r = 0; r < n; r++)
    if (!(ends[r] < tailFrom)) byEnd.push({ rowId: rows[r].row_id, end: ends[r] });
  byEnd.sort((a, b) => a.end - b.end || a.rowId - b.rowId);
  const othersDone =
    k >= n ? window.startSec : tailFrom === -Infinity ? byEnd[n - k - 1].end : sorted[n - k - 1];
  const tailSec = Math.max(0, window.endSec - othersDone);
  const sampleShare = k / n;
  const wallShare = tailSec / window.durationSec;
  const figures = {
    window,
    rowIds: byEnd.slice(byEnd.length - k).map((s) => s.rowId),
    sampleCount: k,
    sampleShare,
    tailSec,
    wallShare,
  };
  return { ...figures, sentence: stragglerSentence(figures) };
}
