import type { PackedRow } from '../model/row';
import type { StragglerAttribution, TimeWindow } from '../model/rollout-figures';
import { sampleWorkEnd } from './sample-work';

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
): StragglerAttribution | null {
  const n = rows.length;
  if (n === 0 || window.durationSec <= 0) return null;
  const from = globalStartSec + window.startSec;
  const byEnd = rows
    .map((row) => ({ rowId: row.row_id, end: sampleWorkEnd(row, from) - globalStartSec }))
    .sort((a, b) => a.end - b.end || a.rowId - b.rowId);
  const k = Math.max(1, Math.ceil(n * TAIL_SHARE));
  const othersDone = k >= n ? window.startSec : byEnd[n - k - 1].end;
  const tailSec = Math.max(0, window.endSec - othersDone);
  const sampleShare = k / n;
  const wallShare = tailSec / window.durationSec;
  const pct = (share: number) => `${(share * 100).toFixed(1)}%`;
  return {
    window,
    rowIds: byEnd.slice(n - k).map((s) => s.rowId),
    sampleCount: k,
    sampleShare,
    tailSec,
    wallShare,
    sentence:
      `the last ${k} sample${k === 1 ? '' : 's'} (${pct(sampleShare)}) kept the rollout open for ` +
      `${pct(wallShare)} of its ${window.kind === 'own' ? 'own ' : ''}wall time ` +
      `(${tailSec.toFixed(1)} of ${window.durationSec.toFixed(1)} s)`,
  };
}
