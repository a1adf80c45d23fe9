import type { AttrValue, PackedRow } from '../model/row';
import type { SampleFacts } from '../model/sample-facts';
import type { RolloutFigures } from '../model/rollout-figures';
import { minOf } from '../model/extent';
import { buildWindows, findResumedSamples } from '../rows/rollout-window';
import { buildOwnBreakdown, buildWholeBreakdown } from '../rows/wall-time-breakdown';
import { buildStragglerAttribution } from '../rows/straggler-attribution';
import { buildGroupFigures } from '../rows/group-figures';
import { WorkEnds } from '../rows/sample-work';

/** (ours) The rollout's own window, resumes, what kept it open, stragglers and groups. */
export function buildRolloutFigures(
  rows: PackedRow[],
  facts: readonly (SampleFacts | null)[],
  rolloutId: AttrValue,
): RolloutFigures {
  const globalStart = rows.length > 0 ? minOf(rows, (row) => row.start) : 0;
  const resumed = findResumedSamples(rows, facts, rolloutId, globalStart);
  const { whole, own } = buildWindows(rows, resumed);
  const breakdownOwn = buildOwnBreakdown(rows, own, globalStart);
  // each row's items walked once for both figures that need where its own work ended
  const workEnds = new WorkEnds(rows);
  return {
    whole,
    own,
    resumed,
    breakdownOwn,
    breakdownWhole: buildWholeBreakdown(breakdownOwn, whole, resumed),
    stragglers: buildStragglerAttribution(rows, own, globalStart, workEnds),
    groups: buildGroupFigures(rows, resumed, globalStart, workEnds),
    responseLengths: rows.map((row) => facts[row.row_id]?.responseLength ?? null),
  };
}
