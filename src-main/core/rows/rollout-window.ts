import type { AttrValue, PackedRow } from '../model/row';
import type { SampleFacts } from '../model/sample-facts';
import type { ResumedSample, TimeWindow } from '../model/rollout-figures';
import { minOf, maxOf } from '../model/extent';
import { coveredSegments } from './sample-work';

/**
 * slime's partial rollout: a group left unfinished when rollout N ended is carried into rollout
 * N+1 and finished there. slime marks such a sample with `metadata.start_rollout_id` (the
 * rollout where it started) and keeps its whole trace, both attempts; the `attempt_start`
 * marker with reason `partial_rollout_resume` is written for retries inside one rollout too, so
 * the metadata, not the marker, says a sample came from an earlier rollout. The time between
 * its attempts is no span: we find it as the longest stretch its trace covers nothing.
 */
export function findResumedSamples(
  rows: PackedRow[],
  facts: readonly (SampleFacts | null)[],
  rolloutId: AttrValue,
  globalStartSec: number,
): ResumedSample[] {
  if (typeof rolloutId !== 'number') return [];
  const resumed: ResumedSample[] = [];
  for (const row of rows) {
    const startRolloutId = facts[row.row_id]?.startRolloutId ?? null;
    if (startRolloutId === null || startRolloutId >= rolloutId) continue;
    const segments = coveredSegments(row);
    let gapAfter = -1;
    let widest = 0;
    for (let i = 0; i + 1 < segments.length; i++) {
      const gap = segments[i + 1][0] - segments[i][1];
      if (gap > widest) [widest, gapAfter] = [gap, i];
    }
    const earlierEnd = gapAfter >= 0 ? segments[gapAfter][1] : row.start;
    const resumeStart = gapAfter >= 0 ? segments[gapAfter + 1][0] : row.start;
    resumed.push({
      rowId: row.row_id,
      sampleIndex: row.sample_index,
      groupIndex: row.group_index,
      startRolloutId,
      earlierStartSec: row.start - globalStartSec,
      earlierEndSec: earlierEnd - globalStartSec,
      resumeStartSec: resumeStart - globalStartSec,
      idleSec: resumeStart - earlierEnd,
    });
  }
  return resumed;
}

/** slime's viewer span, and this rollout's own: from its first work in this rollout to its end. */
export function buildWindows(
  rows: PackedRow[],
  resumed: ResumedSample[],
): { whole: TimeWindow; own: TimeWindow } {
  if (rows.length === 0) {
    const empty: TimeWindow = {
      startSec: 0,
      endSec: 0,
      durationSec: 0,
      kind: 'whole',
      label: 'no rows',
    };
    return { whole: empty, own: { ...empty, kind: 'own' } };
  }
  const globalStart = minOf(rows, (row) => row.start);
  const endSec = maxOf(rows, (row) => row.end) - globalStart;
  const whole: TimeWindow = {
    startSec: 0,
    endSec,
    durationSec: endSec,
    kind: 'whole',
    label: `the whole file, as slime's viewer spans it: 0-${fmt(endSec)} s (${fmt(endSec)} s)`,
  };
  const resumeStart = new Map(resumed.map((r) => [r.rowId, r.resumeStartSec]));
  const startSec = minOf(rows, (row) => resumeStart.get(row.row_id) ?? row.start - globalStart);
  const ownDuration = endSec - startSec;
  const earlier = resumed.filter((r) => r.idleSec > 0).length;
  const own: TimeWindow = {
    startSec,
    endSec,
    durationSec: ownDuration,
    kind: 'own',
    label:
      earlier > 0
        ? `this rollout's own window: ${fmt(startSec)}-${fmt(endSec)} s (${fmt(ownDuration)} s); earlier attempts of ${earlier} resumed sample${earlier === 1 ? '' : 's'} left out`
        : `this rollout's own window: 0-${fmt(endSec)} s (${fmt(endSec)} s), the whole file (no sample resumed from an earlier rollout)`,
  };
  return { whole, own };
}

function fmt(sec: number): string {
  return sec.toFixed(1);
}
