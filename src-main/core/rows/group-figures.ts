import type { PackedRow } from '../model/row';
import type { GroupFigures, ResumedSample } from '../model/rollout-figures';
import { rewardValue } from '../model/reward-value';
import { maxOf, minOf } from '../model/extent';
import { WorkEnds } from './sample-work';

/**
 * One line per GRPO group: its samples' band in this rollout, its slowest sample, its wall time
 * against its median sample, and its rewards. A group whose rewards are all equal gives every
 * sample a zero advantage: no learning signal (samples without a reward are left out).
 */
export function buildGroupFigures(
  rows: PackedRow[],
  resumed: ResumedSample[],
  globalStartSec: number,
  workEnds = new WorkEnds(rows),
): GroupFigures[] {
  const resumeStart = new Map(resumed.map((r) => [r.rowId, r.resumeStartSec + globalStartSec]));
  // each group's rows by their place in `rows`
  const groups = new Map<string, number[]>();
  for (let r = 0; r < rows.length; r++) {
    const row = rows[r];
    const group = row.group_index;
    const key =
      group === null || group === undefined
        ? `row ${row.row_id}`
        : // a finite number's text is its JSON (the common case, without JSON.stringify's cost)
          typeof group === 'number' && Number.isFinite(group)
          ? String(group)
          : JSON.stringify(group);
    const list = groups.get(key);
    if (list) list.push(r);
    else groups.set(key, [r]);
  }
  return [...groups.values()].map((places) => {
    const members = places.map((r) => rows[r]);
    const starts = members.map((row) => resumeStart.get(row.row_id) ?? row.start);
    // loops, not Math.min(...list): a group can hold every sample of a big dump
    const start = minOf(starts, (t) => t);
    const end = maxOf(members, (row) => row.end);
    const ends = places.map((r, i) => workEnds.of(r, starts[i]));
    let slowest = 0;
    for (let i = 1; i < members.length; i++) if (ends[i] > ends[slowest]) slowest = i;
    const rewards = members
      .map((row) => rewardValue(row.reward))
      .filter((r): r is number => r !== null);
    const mean = rewards.length > 0 ? rewards.reduce((s, r) => s + r, 0) / rewards.length : null;
    const std =
      mean === null
        ? null
        : Math.sqrt(rewards.reduce((s, r) => s + (r - mean) ** 2, 0) / rewards.length);
    return {
      groupIndex: members[0].group_index,
      rowIds: members.map((row) => row.row_id),
      startSec: start - globalStartSec,
      endSec: end - globalStartSec,
      wallSec: end - start,
      slowestRowId: members[slowest].row_id,
      slowestEndSec: ends[slowest] - globalStartSec,
      medianSampleSec: median(ends.map((e, i) => e - starts[i])),
      rewardMean: mean,
      rewardStd: std,
      zeroVariance: rewards.length >= 2 && rewards.every((r) => r === rewards[0]),
      resumedSamples: members.filter((row) => resumeStart.has(row.row_id)).length,
    };
  });
}

/** numpy's median: the mean of the middle two for an even count. */
export function median(values: number[]): number {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  const n = sorted.length;
  return n % 2 === 1 ? sorted[(n - 1) / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
}
