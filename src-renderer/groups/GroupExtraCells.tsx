import {
  groupExtraFigures,
  type GroupExtraFigures,
} from '../../src-main/core/model/group-extra-figures';
import type { RunSampleFigures } from '../../src-main/core/model/run-extra';

/** The groups table's columns from a run's train dump and request metrics (docs/run-extra.md). */
export const EXTRA_COLUMNS: { label: string; title: string }[] = [
  {
    label: 'cache hit',
    title: "prefix-cache hit: cached over prompt tokens of the group's requests",
  },
  { label: 'retractions', title: 'times the scheduler retracted (preempted) its requests' },
  {
    label: 'mean |Δ log p|',
    title: "trainer's minus server's log-prob, token-weighted over loss-masked tokens",
  },
  { label: 'ratio out', title: 'share of tokens whose importance ratio is outside [0.5, 2]' },
  {
    label: 'staleness',
    title: "tokens' age in weight versions behind the trainer (verl), mean; share stale",
  },
];

const pct = (v: number | null) => (v === null ? '–' : `${(v * 100).toFixed(1)}%`);

/** One group's (or sample's) cells under EXTRA_COLUMNS; dashes where its files say nothing. */
export function GroupExtraCells({
  rowIds,
  figures,
}: {
  rowIds: readonly number[];
  figures: Map<number, RunSampleFigures>;
}) {
  const f: GroupExtraFigures | null = groupExtraFigures(rowIds, (row) => figures.get(row));
  return (
    <>
      <td className="num" data-testid="group-cache-hit">
        {pct(f?.cacheHit ?? null)}
      </td>
      <td
        className={`num${(f?.retractions ?? 0) > 0 ? ' warn' : ''}`}
        data-testid="group-retractions"
      >
        {f?.retractions ?? '–'}
        {f && f.retractedSamples > 0 && rowIds.length > 1 ? ` (${f.retractedSamples} samples)` : ''}
      </td>
      <td className="num" data-testid="group-mismatch">
        {f?.meanAbsDelta == null ? '–' : f.meanAbsDelta.toPrecision(3)}
      </td>
      <td className={`num${(f?.outsideShare ?? 0) > 0 ? ' warn' : ''}`} data-testid="group-outside">
        {pct(f?.outsideShare ?? null)}
      </td>
      <td
        className={`num${(f?.staleFraction ?? 0) > 0 ? ' warn' : ''}`}
        data-testid="group-staleness"
      >
        {f?.staleMean == null ? '–' : `${f.staleMean.toFixed(2)} (${pct(f.staleFraction)})`}
      </td>
    </>
  );
}
