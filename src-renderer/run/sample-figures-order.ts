import type { RunResult } from '../../src-main/core/api/trace-api';
import type { RunSampleFigures } from '../../src-main/core/model/run-extra';
import { keyOf, type SampleRowRef } from './run-model';

/**
 * The run tab's sort and filter over the figures train dumps and request metrics give each
 * sample (docs/run-extra.md): the sample rows keep their timeline, only their order changes.
 */
export const FIGURE_SORTS = {
  start: { label: 'start', of: () => null },
  mismatch: { label: 'mean |Δ log p|', of: (f) => f.train?.mismatch?.meanAbsDelta ?? null },
  maxMismatch: { label: 'max |Δ log p|', of: (f) => f.train?.mismatch?.maxAbsDelta ?? null },
  outside: { label: 'ratio outside [0.5, 2]', of: (f) => f.train?.mismatch?.outsideShare ?? null },
  cacheHit: { label: 'prefix-cache hit', of: (f) => f.cacheHit },
  retractions: { label: 'retractions', of: (f) => f.retractions },
  queue: { label: 'server queue time', of: (f) => f.queueSec },
  overhead: { label: 'client overhead', of: (f) => f.clientOverheadSec },
  staleness: { label: 'token staleness', of: (f) => f.staleness?.mean ?? null },
} satisfies Record<string, { label: string; of: (f: RunSampleFigures) => number | null }>;

export type FigureSort = keyof typeof FIGURE_SORTS;

/** Each sample's figures by its key (file:rowId); empty when the run has neither kind of file. */
export function figuresByRow(result: RunResult): Map<string, RunSampleFigures> {
  return new Map((result.joins.extra?.samples ?? []).map((f) => [keyOf(f.file, f.rowId), f]));
}

/**
 * Rows by a figure, largest first (samples without it last, in their start order); `outsideOnly`
 * keeps the samples with a token whose importance ratio is outside [0.5, 2].
 */
export function orderByFigure(
  rows: SampleRowRef[],
  figures: Map<string, RunSampleFigures>,
  sort: FigureSort,
  outsideOnly: boolean,
): SampleRowRef[] {
  const of = (row: SampleRowRef) => {
    const f = figures.get(keyOf(row.file, row.rowId));
    return f ? FIGURE_SORTS[sort].of(f) : null;
  };
  let shown = outsideOnly
    ? rows.filter(
        (r) => (figures.get(keyOf(r.file, r.rowId))?.train?.mismatch?.outsideShare ?? 0) > 0,
      )
    : rows;
  if (sort === 'start') return shown;
  shown = shown
    .map((row, k) => ({ row, k, v: of(row) }))
    .sort((a, b) => (b.v ?? -Infinity) - (a.v ?? -Infinity) || a.k - b.k)
    .map((x) => x.row);
  return shown;
}
