import { useMemo, useState } from 'react';
import type { CompareFigure, CompareResult, FileSummary } from '../../src-main/core/api/trace-api';
import { RowsLink } from './RowsLink';
import { formatPercent } from './format-number';

type SortBy = 'metric' | 'effect';

/**
 * Every perf metric and headline figure for A and B, in one unit per row: the changes beyond
 * noise first, ranked by their effect (seconds moved for times, then relative size), the small
 * changes under a fold; a change is coloured better/worse only beyond noise (the rule is said
 * above the table). The order is core's (CompareFigure.rank): swapping A and B keeps it.
 */
export function PerfDiffTable({
  result,
  fileA,
  fileB,
}: {
  result: CompareResult;
  fileA: FileSummary;
  fileB: FileSummary;
}) {
  const [sortBy, setSortBy] = useState<SortBy>('effect');
  const { changes, small } = useMemo(() => {
    const all = [...result.stats, ...result.perf];
    if (sortBy === 'effect') all.sort((x, y) => x.rank - y.rank);
    else all.sort((x, y) => x.key.localeCompare(y.key));
    return { changes: all.filter((f) => !f.small), small: all.filter((f) => f.small) };
  }, [result, sortBy]);

  const header = (
    <thead>
      <tr>
        <th>
          <button type="button" className="th-button" onClick={() => setSortBy('metric')}>
            Metric{sortBy === 'metric' ? ' ▾' : ''}
          </button>
        </th>
        <th>Unit</th>
        <th>A</th>
        <th>B</th>
        <th>Δ</th>
        <th>
          <button
            type="button"
            className="th-button"
            onClick={() => setSortBy('effect')}
            data-testid="sort-by-effect"
          >
            Δ %{sortBy === 'effect' ? ' ▾' : ''}
          </button>
        </th>
      </tr>
    </thead>
  );
  const body = (rows: CompareFigure[]) => (
    <tbody>
      {rows.map((row) => (
        <FigureRow key={row.key} row={row} fileA={fileA} fileB={fileB} />
      ))}
    </tbody>
  );
  return (
    <div>
      <p className="noise-rule" data-testid="noise-rule">
        {sortBy === 'effect'
          ? 'Biggest effect first: times by the seconds they moved, then the rest by how much they moved'
          : 'Sorted by name'}
        ; {result.noiseRule}.
      </p>
      <table className="diff-table" data-testid="perf-diff-table">
        {header}
        {body(changes)}
      </table>
      {small.length > 0 && (
        <details className="small-changes" data-testid="small-changes">
          <summary>Small changes ({small.length}): under the noise floor, or unchanged</summary>
          <table className="diff-table" data-testid="perf-diff-table-small">
            {header}
            {body(small)}
          </table>
        </details>
      )}
    </div>
  );
}

function FigureRow({
  row,
  fileA,
  fileB,
}: {
  row: CompareFigure;
  fileA: FileSummary;
  fileB: FileSummary;
}) {
  return (
    <tr
      data-metric={row.key}
      data-a={row.a ?? ''}
      data-b={row.b ?? ''}
      data-verdict={row.verdict}
      className={`verdict-${row.verdict}`}
    >
      <td className="metric">
        {row.key}
        {row.note && (
          <span className="figure-note" data-testid="figure-note">
            {row.note}
          </span>
        )}
      </td>
      <td className="unit">{row.shown.unit}</td>
      <td className="num">
        <RowsLink file={fileA} rowIds={row.aRowIds} label={`A ${row.key}`}>
          {row.shown.a}
        </RowsLink>
      </td>
      <td className="num">
        <RowsLink file={fileB} rowIds={row.bRowIds} label={`B ${row.key}`}>
          {row.shown.b}
        </RowsLink>
      </td>
      <td className="num">{row.shown.delta}</td>
      <td className="num change">{formatPercent(row.relative)}</td>
    </tr>
  );
}
