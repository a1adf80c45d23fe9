import type { RowView } from '../../src-main/core/api/trace-api';
import { formatDuration } from '../timeline/time-format';
import { TIMING_PARTS, buildSampleTiming } from './sample-timing';

/** A sample's timing first: duration, turns, attempts, and the split of its own time. */
export function SampleTimingTable({ row }: { row: RowView }) {
  const timing = buildSampleTiming(row);
  if (!timing) return null;
  const parts = TIMING_PARTS.filter((p) => timing.seconds[p] > 0);
  return (
    <div className="sample-timing" data-testid="sample-timing" data-duration={timing.durationSec}>
      <p>
        <b>{formatDuration(timing.durationSec)}</b> · {timing.turns} turn
        {timing.turns === 1 ? '' : 's'} · {timing.attempts} attempt
        {timing.attempts === 1 ? '' : 's'}
      </p>
      <table className="facts">
        <tbody>
          {parts.map((p) => (
            <tr key={p} data-testid="timing-part" data-part={p} data-sec={timing.seconds[p]}>
              <th>{p}</th>
              <td className="num">{formatDuration(timing.seconds[p])}</td>
              <td className="num muted">
                {((timing.seconds[p] / (timing.durationSec || 1)) * 100).toFixed(0)}%
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
