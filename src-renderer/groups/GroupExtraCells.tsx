import {
  groupExtraFigures,
  type GroupExtraFigures,
  type GroupExtraKey,
} from '../../src-main/core/model/group-extra-figures';
import type { RunSampleFigures } from '../../src-main/core/model/run-extra';

/**
 * The groups table's columns from a run's train dump and request metrics (docs/run-extra.md),
 * each sorting by the figure it shows (`key`).
 */
export const EXTRA_COLUMNS: { key: GroupExtraKey; label: string; title: string }[] = [
  {
    key: 'decodePerToken',
    label: 'decode\n/ token',
    title: "the servers' decode time per output token: inference_time over completion tokens",
  },
  {
    key: 'cacheHit',
    label: 'cache\nhit',
    title: "prefix-cache hit: cached over prompt tokens of the group's requests",
  },
  {
    key: 'retractions',
    label: 'retrac-\ntions',
    title: 'times the scheduler retracted (preempted) its requests',
  },
  {
    key: 'meanAbsDelta',
    label: 'mean\n|Δ log p|',
    title: "trainer's minus server's log-prob, token-weighted over loss-masked tokens",
  },
  {
    key: 'maxAbsDelta',
    label: 'max\n|Δ log p|',
    title: "the largest |trainer's minus server's log-prob| of a loss-masked token",
  },
  {
    key: 'outsideShare',
    label: 'ratio\nout',
    title: 'share of tokens whose importance ratio is outside [0.5, 2]',
  },
  {
    key: 'staleMean',
    label: 'staleness',
    title: "tokens' age in weight versions behind the trainer (verl), mean; share stale",
  },
];

const pct = (v: number | null) => (v === null ? '–' : `${(v * 100).toFixed(1)}%`);
const digits = (v: number | null) => (v === null ? '–' : v.toPrecision(3));

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
      <td className="num" data-testid="group-decode" data-value={f?.decodePerToken ?? ''}>
        {f?.decodePerToken == null ? '–' : `${(f.decodePerToken * 1e3).toFixed(2)} ms`}
      </td>
      <td className="num" data-testid="group-cache-hit" data-value={f?.cacheHit ?? ''}>
        {pct(f?.cacheHit ?? null)}
      </td>
      <td
        className={`num${(f?.retractions ?? 0) > 0 ? ' warn' : ''}`}
        data-testid="group-retractions"
        data-value={f?.retractions ?? ''}
      >
        {f?.retractions ?? '–'}
        {f && f.retractedSamples > 0 && rowIds.length > 1 ? ` (${f.retractedSamples} samples)` : ''}
      </td>
      <td className="num" data-testid="group-mismatch" data-value={f?.meanAbsDelta ?? ''}>
        {digits(f?.meanAbsDelta ?? null)}
      </td>
      <td className="num" data-testid="group-max-mismatch" data-value={f?.maxAbsDelta ?? ''}>
        {digits(f?.maxAbsDelta ?? null)}
      </td>
      <td
        className={`num${(f?.outsideShare ?? 0) > 0 ? ' warn' : ''}`}
        data-testid="group-outside"
        data-value={f?.outsideShare ?? ''}
      >
        {pct(f?.outsideShare ?? null)}
      </td>
      <td
        className={`num${(f?.staleFraction ?? 0) > 0 ? ' warn' : ''}`}
        data-testid="group-staleness"
        data-value={f?.staleMean ?? ''}
      >
        {f?.staleMean == null ? '–' : `${f.staleMean.toFixed(2)} (${pct(f.staleFraction)})`}
      </td>
    </>
  );
}
