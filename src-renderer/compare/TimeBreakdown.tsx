import type { CompareResult } from '../../src-main/core/api/trace-api';
import { formatPercent, formatSeconds } from './format-number';
import { relativeChange } from './metric-direction';

/** Total time per span name in A and B, biggest change first: the phase that grew stands out. */
export function TimeBreakdown({ result }: { result: CompareResult }) {
  const max = Math.max(1e-9, ...result.spanTotals.flatMap((t) => [t.aSec, t.bSec]));
  return (
    <table className="diff-table time-breakdown" data-testid="time-breakdown">
      <thead>
        <tr>
          <th>Span name</th>
          <th>A total</th>
          <th>B total</th>
          <th>Change</th>
          <th className="bars-col">A / B</th>
          <th>Count A / B</th>
        </tr>
      </thead>
      <tbody>
        {result.spanTotals.map((t) => {
          const rel = relativeChange(t.aSec, t.bSec);
          const verdict =
            rel === null || Math.abs(rel) < 0.005 ? 'same' : rel > 0 ? 'worse' : 'better';
          return (
            <tr key={t.name} data-span={t.name} className={`verdict-${verdict}`}>
              <td className="metric">{t.name}</td>
              <td className="num">{formatSeconds(t.aSec)}</td>
              <td className="num">{formatSeconds(t.bSec)}</td>
              <td className="num change">
                {formatSeconds(t.bSec - t.aSec)} ({formatPercent(rel)})
              </td>
              <td className="bars-col">
                <div className="pair-bar a" style={{ width: `${(t.aSec / max) * 100}%` }} />
                <div className="pair-bar b" style={{ width: `${(t.bSec / max) * 100}%` }} />
              </td>
              <td className="num">
                {t.aCount} / {t.bCount}
              </td>
            </tr>
          );
        })}
      </tbody>
    </table>
  );
}
