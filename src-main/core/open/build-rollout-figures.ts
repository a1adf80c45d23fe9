import type { AttrValue, PackedRow } from '../model/row';
import type { PyValue } from '../model/py-value';
import type { RolloutFigures } from '../model/rollout-figures';
import { minOf } from '../model/extent';
import { buildWindows, findResumedSamples } from '../rows/rollout-window';
import { buildOwnBreakdown, buildWholeBreakdown } from '../rows/wall-time-breakdown';
import { buildStragglerAttribution } from '../rows/straggler-attribution';
import { buildGroupFigures } from '../rows/group-figures';

/** (ours) The rollout's own window, resumes, what kept it open, stragglers and groups. */
export function buildRolloutFigures(
  rows: PackedRow[],
  samples: PyValue[],
  rolloutId: AttrValue,
): RolloutFigures {
  const globalStart = rows.length > 0 ? minOf(rows, (row) => row.start) : 0;
  const resumed = findResumedSamples(rows, samples, rolloutId, globalStart);
  const { whole, own } = buildWindows(rows, resumed);
  const breakdownOwn = buildOwnBreakdown(rows, own, globalStart);
  return {
    whole,
    own,
    resumed,
    breakdownOwn,
    breakdownWhole: buildWholeBreakdown(breakdownOwn, whole, resumed),
    stragglers: buildStragglerAttribution(rows, own, globalStart),
    groups: buildGroupFigures(rows, resumed, globalStart),
    responseLengths: rows.map((row) => responseLength(samples[row.row_id])),
  };
}

function responseLength(sample: PyValue | undefined): number | null {
  if (!sample || typeof sample !== 'object' || Array.isArray(sample)) return null;
  const value = (sample as Record<string, PyValue>).response_length;
  if (typeof value === 'number' && Number.isFinite(value)) return value;
  if (typeof value === 'bigint') return Number(value);
  return null;
}
