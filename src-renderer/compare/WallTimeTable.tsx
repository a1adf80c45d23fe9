import type { CompareResult, FileSummary } from '../../src-main/core/api/trace-api';
import { RowsLink } from './RowsLink';
import { formatSeconds } from './format-number';

/**
 * What kept each rollout open, by kind of work, over its own window and over the whole file
 * (where idle time between a resumed sample's attempts and its earlier attempts appear).
 */
export function WallTimeTable({
  result,
  fileA,
  fileB,
}: {
  result: CompareResult;
  fileA: FileSummary;
  fileB: FileSummary;
}) {
  const shown = result.wallTime.filter((w) => w.aWholeSec > 0 || w.bWholeSec > 0);
  return (
    <div>
      <p className="noise-rule">
        At each moment the rollout is open because its last group is: the moment counts for what
        that group&apos;s slowest sample was doing. A: {result.windows.a.own}. B:{' '}
        {result.windows.b.own}.
      </p>
      <table className="diff-table" data-testid="wall-time-table">
        <thead>
          <tr>
            <th>Kept open by</th>
            <th>A own window</th>
            <th>B own window</th>
            <th>Δ own</th>
            <th>A whole file</th>
            <th>B whole file</th>
          </tr>
        </thead>
        <tbody>
          {shown.map((w) => (
            <tr key={w.category} data-category={w.category}>
              <td className="metric">{w.category}</td>
              <td className="num">{formatSeconds(w.aOwnSec)}</td>
              <td className="num">{formatSeconds(w.bOwnSec)}</td>
              <td className="num">{formatSeconds(w.bOwnSec - w.aOwnSec)}</td>
              <td className="num">
                <RowsLink
                  file={fileA}
                  rowIds={w.aWholeSec > 0 ? w.aRowIds : undefined}
                  label={`A ${w.category}`}
                >
                  {formatSeconds(w.aWholeSec)}
                </RowsLink>
              </td>
              <td className="num">
                <RowsLink
                  file={fileB}
                  rowIds={w.bWholeSec > 0 ? w.bRowIds : undefined}
                  label={`B ${w.category}`}
                >
                  {formatSeconds(w.bWholeSec)}
                </RowsLink>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
