import { useMemo, useState } from 'react';
import type { CompareResult } from '../../src-main/core/api/trace-api';
import { changeVerdict, relativeChange } from './metric-direction';
import { formatNumber, formatPercent } from './format-number';

type SortBy = 'metric' | 'change';

/** Every perf metric and headline stat for A and B, with the change coloured better/worse. */
export function PerfDiffTable({ result }: { result: CompareResult }) {
  const [sortBy, setSortBy] = useState<SortBy>('metric');
  const rows = useMemo(() => {
    const all = [...result.stats, ...result.perf].map((row) => ({
      ...row,
      delta: row.a !== null && row.b !== null ? row.b - row.a : null,
      relative: relativeChange(row.a, row.b),
      verdict: changeVerdict(row.key, row.a, row.b),
    }));
    if (sortBy === 'change') {
      all.sort(
        (x, y) =>
          Math.abs(y.relative ?? 0) - Math.abs(x.relative ?? 0) || x.key.localeCompare(y.key),
      );
    }
    return all;
  }, [result, sortBy]);

  return (
    <table className="diff-table" data-testid="perf-diff-table">
      <thead>
        <tr>
          <th>
            <button type="button" className="th-button" onClick={() => setSortBy('metric')}>
              Metric{sortBy === 'metric' ? ' ▾' : ''}
            </button>
          </th>
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
              Δ %{sortBy === 'change' ? ' ▾' : ''}
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
            className={`verdict-${row.verdict}`}
          >
            <td className="metric">{row.key}</td>
            <td className="num">{formatNumber(row.a)}</td>
            <td className="num">{formatNumber(row.b)}</td>
            <td className="num">{formatNumber(row.delta)}</td>
            <td className="num change">{formatPercent(row.relative)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
