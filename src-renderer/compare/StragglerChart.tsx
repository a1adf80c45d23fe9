import { useEffect, useState } from 'react';
import { scaleLinear } from '@visx/scale';
import { Group } from '@visx/group';
import { ChartAxes } from '../perf/ChartAxes';
import type { FileSummary, PerfView, RowView } from '../../src-main/core/api/trace-api';
import type { TraceHost } from '../host/trace-host';
import { formatSeconds } from './format-number';

const WIDTH = 720;
const HEIGHT = 240;
const MARGIN = { top: 12, right: 16, bottom: 36, left: 48 };
const TAIL_SHARE = 0.1;

/** When the running count falls below a tenth of its peak: the tail that stragglers keep alive. */
export function tailStart(running: { tSec: number; running: number }[]): number | null {
  const peak = Math.max(0, ...running.map((p) => p.running));
  if (peak === 0) return null;
  let peakSeen = false;
  for (const point of running) {
    if (point.running === peak) peakSeen = true;
    else if (peakSeen && point.running <= peak * TAIL_SHARE) return point.tSec;
  }
  return null;
}

function stepPath(
  points: { tSec: number; running: number }[],
  x: (t: number) => number,
  y: (n: number) => number,
) {
  let d = '';
  let previous = 0;
  for (const p of points) {
    d += d === '' ? `M${x(p.tSec)},${y(0)}` : '';
    d += `L${x(p.tSec)},${y(previous)}L${x(p.tSec)},${y(p.running)}`;
    previous = p.running;
  }
  return d;
}

/** Samples running over time in A and B, the tail marked, and the last samples to finish. */
export function StragglerChart({
  host,
  fileA,
  fileB,
  perfA,
  perfB,
}: {
  host: TraceHost;
  fileA: FileSummary;
  fileB: FileSummary;
  perfA: PerfView;
  perfB: PerfView;
}) {
  const [last, setLast] = useState<[RowView[], RowView[]]>([[], []]);
  useEffect(() => {
    let live = true;
    const lastRows = async (file: FileSummary) => {
      const order = await host.api.queryRows(file.fileId, { sort: 'duration', descending: true });
      return host.api.getRows(file.fileId, Array.from(order.rowIds.subarray(0, 5)));
    };
    void Promise.all([lastRows(fileA), lastRows(fileB)]).then((rows) => live && setLast(rows));
    return () => {
      live = false;
    };
  }, [host, fileA, fileB]);

  const end = Math.max(
    1e-9,
    ...perfA.running.map((p) => p.tSec),
    ...perfB.running.map((p) => p.tSec),
  );
  const peak = Math.max(
    1,
    ...perfA.running.map((p) => p.running),
    ...perfB.running.map((p) => p.running),
  );
  const innerW = WIDTH - MARGIN.left - MARGIN.right;
  const innerH = HEIGHT - MARGIN.top - MARGIN.bottom;
  const x = scaleLinear({ domain: [0, end], range: [0, innerW] });
  const y = scaleLinear({ domain: [0, peak], range: [innerH, 0], nice: true });
  const tails = [tailStart(perfA.running), tailStart(perfB.running)];

  return (
    <div className="stragglers" data-testid="straggler-view">
      <svg width={WIDTH} height={HEIGHT} role="img" aria-label="Samples running over time">
        <Group left={MARGIN.left} top={MARGIN.top}>
          <path className="running-a" d={stepPath(perfA.running, x, y)} />
          <path className="running-b" d={stepPath(perfB.running, x, y)} />
          {tails.map((t, i) =>
            t === null ? null : (
              <line
                key={i}
                className={`tail-${i === 0 ? 'a' : 'b'}`}
                x1={x(t)}
                x2={x(t)}
                y1={0}
                y2={innerH}
              />
            ),
          )}
          <ChartAxes
            innerH={innerH}
            x={x}
            y={y}
            xTicks={8}
            xFormat={formatSeconds}
            yTicks={5}
            size="normal"
          />
        </Group>
      </svg>
      <div className="straggler-lists">
        {[fileA, fileB].map((file, i) => (
          <div key={file.fileId} data-testid={`stragglers-${i === 0 ? 'a' : 'b'}`}>
            <h4>
              <span className={`compare-side ${i === 0 ? 'a' : 'b'}`}>{i === 0 ? 'A' : 'B'}</span>{' '}
              tail from {tails[i] === null ? '–' : formatSeconds(tails[i]!)}; longest samples
            </h4>
            <ol>
              {last[i].map((row) => (
                <li key={row.rowId}>
                  #{String(row.sampleIndex)} {row.source ?? ''} ·{' '}
                  {formatSeconds(row.endSec - row.startSec)} · {row.status ?? ''}
                </li>
              ))}
            </ol>
          </div>
        ))}
      </div>
    </div>
  );
}
