import type { TrendsResult } from '../../src-main/core/model/trend';
import { formatValue } from '../perf/value-format';
import { dpRankTokens, extraMetrics, metricLabel } from './trend-metrics';

type Point = TrendsResult['points'][number];

/**
 * The run's figures per rollout (its train dumps and request metrics) as a table: a column per
 * figure some rollout has (its unit in the header), and the tokens each DP rank trained on. Shown only when the run has
 * those files; a click on a rollout's name opens it, as a dot does.
 */
export function TrendsRunTable({
  points,
  units,
  onOpen,
}: {
  points: Point[];
  units: Record<string, string>;
  onOpen(point: Point): void;
}) {
  const keys = extraMetrics(points);
  const rows = points.filter((p) => keys.some((key) => key in p.figures));
  if (rows.length === 0) return null;
  const dpRanks = rows.some((p) => (p.tokensPerDpRank?.length ?? 0) > 0);
  return (
    <details className="trends-run-figures" open>
      <summary>
        Run figures per rollout <span className="muted">(train dumps, request metrics)</span>
      </summary>
      <div className="trends-run-table-scroll">
        <table className="trends-run-table" data-testid="trends-run-table">
          <thead>
            <tr>
              <th>rollout</th>
              {keys.map((key) => (
                <th key={key} title={key}>
                  {metricLabel(key)}
                  {units[key] && <span className="muted"> ({units[key]})</span>}
                </th>
              ))}
              {dpRanks && <th title="loss-masked tokens per DP rank">tokens per DP rank</th>}
            </tr>
          </thead>
          <tbody>
            {rows.map((point) => (
              <tr key={point.path} data-name={point.name}>
                <td>
                  <button type="button" className="trends-link" onClick={() => onOpen(point)}>
                    {point.name}
                  </button>
                </td>
                {keys.map((key) => {
                  const value = point.figures[key];
                  return (
                    <td key={key} data-metric={key} data-value={value} className="num">
                      {/* the unit is the column's */}
                      {value === undefined ? '—' : formatValue(value, '')}
                    </td>
                  );
                })}
                {dpRanks && (
                  <td data-metric="tokensPerDpRank" className="num">
                    {dpRankTokens(point) || '—'}
                  </td>
                )}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </details>
  );
}
