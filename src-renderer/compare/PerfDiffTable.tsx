import { useMemo, useState } from 'react';
import type { CompareResult, FileSummary } from '../../src-main/core/api/trace-api';
import { RowsLink } from './RowsLink';
import { formatNumber, formatPercent } from './format-number';

type SortBy = 'metric' | 'change';

/**
 * Every perf metric and headline figure for A and B with its unit, biggest |Δ%| first; a change
 * is coloured better/worse only beyond noise (the rule is said under the table).
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
  const [sortBy, setSortBy] = useState<SortBy>('change');
  const rows = useMemo(() => {
    const all = [...result.stats, ...result.perf].map((row) => ({
      ...row,
      delta: row.a !== null && row.b !== null ? row.b - row.a : null,
    }));
    const size = (r: number | null) => (r === null ? -1 : Math.abs(r));
    if (sortBy === 'change') {
      all.sort((x, y) => size(y.relative) - size(x.relative) || x.key.localeCompare(y.key));
    } else all.sort((x, y) => x.key.localeCompare(y.key));
    return all;
  }, [result, sortBy]);

  return (
    <div>
      <p className="noise-rule" data-testid="noise-rule">
        Sorted by {sortBy === 'change' ? '|Δ%|' : 'name'}; {result.noiseRule}.
      </p>
      <table className="diff-table" data-testid="perf-diff-table">
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
                onClick={() => setSortBy('change')}
                data-testid="sort-by-change"
              >
                |Δ %|{sortBy === 'change' ? ' ▾' : ''}
              </button>
            </th>
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr
              key={row.key}
              data-metric={row.key}
              data-a={row.a ?? ''}
              data-b={row.b ?? ''}
              data-verdict={row.verdict}
              className={`verdict-${row.verdict}`}
            >
              <td className="metric">{row.key}</td>
              <td className="unit">{row.unit}</td>
              <td className="num">
                <RowsLink file={fileA} rowIds={row.aRowIds} label={`A ${row.key}`}>
                  {formatNumber(row.a)}
                </RowsLink>
              </td>
              <td className="num">
                <RowsLink file={fileB} rowIds={row.bRowIds} label={`B ${row.key}`}>
                  {formatNumber(row.b)}
                </RowsLink>
              </td>
              <td className="num">{formatNumber(row.delta)}</td>
              <td className="num change">{formatPercent(row.relative)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
