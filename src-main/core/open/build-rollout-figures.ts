import type { AttrValue, PackedRow } from '../model/row';
import type { SampleFacts } from '../model/sample-facts';
import type { RolloutFigures } from '../model/rollout-figures';
import { minOf } from '../model/extent';
import { buildWindows, findResumedSamples } from '../rows/rollout-window';
import { buildOwnBreakdown, buildWholeBreakdown } from '../rows/wall-time-breakdown';
import { buildStragglerAttribution } from '../rows/straggler-attribution';
import { buildGroupFigures } from '../rows/group-figures';
import { WorkEnds } from '../rows/sample-work';
import { keptOnFirstRead } from './kept-on-first-read';

/**
 * (ours) The rollout's own window, resumes, what kept it open, stragglers and groups. The window
 * and resumes now (the summary names them); the breakdowns, stragglers and groups when first
 * read (the perf view, compare, trends, `summary` of a rollout): they walk the bounding row's
 * items as objects, and a file that is no rollout (a GPU rank's million-item row) spent a
 * fifth of its open on figures no view of it reads.
 */
export function buildRolloutFigures(
  rows: PackedRow[],
  facts: readonly (SampleFacts | null)[],
  rolloutId: AttrValue,
): RolloutFigures {
  const globalStart = rows.length > 0 ? minOf(rows, (row) => row.start) : 0;
  const resumed = findResumedSamples(rows, facts, rolloutId, globalStart);
  const { whole, own } = buildWindows(rows, resumed);
  // each row's items walked once for both figures that need where its own work ended
  let workEnds: WorkEnds | null = null;
  const ends = () => (workEnds ??= new WorkEnds(rows));
  const figures = { whole, own, resumed } as RolloutFigures;
  keptOnFirstRead(figures, 'breakdownOwn', () => buildOwnBreakdown(rows, own, globalStart));
  keptOnFirstRead(figures, 'breakdownWhole', () =>
    buildWholeBreakdown(figures.breakdownOwn, whole, resumed),
  );
  keptOnFirstRead(figures, 'stragglers', () =>
    buildStragglerAttribution(rows, own, globalStart, ends()),
  );
  keptOnFirstRead(figures, 'groups', () => buildGroupFigures(rows, resumed, globalStart, ends()));
  figures.responseLengths = rows.map((row) => facts[row.row_id]?.responseLength ?? null);
  return figures;
}
