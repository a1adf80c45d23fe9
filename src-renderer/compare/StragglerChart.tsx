import { useEffect, useState } from 'react';
import { scaleLinear } from '@visx/scale';
import { Group } from '@visx/group';
import { ChartAxes } from '../perf/ChartAxes';
import type { FileSummary, RowView, RunningDigest } from '../../src-main/core/api/trace-api';
import type { TraceHost } from '../host/trace-host';
import { formatSeconds } from './format-number';
import { ChartPicture } from '../picture/ChartPicture';

const WIDTH = 720;
const HEIGHT = 240;
const MARGIN = { top: 12, right: 16, bottom: 36, left: 48 };
const TAIL_SHARE = 0.1;

/**
 * When the running count falls below a tenth of its peak: the tail that stragglers keep alive.
 * On the worker's reduced curve (RunningDigest) this is within one of its 4096 columns of the
 * moment on the full curve: less than a pixel of this chart.
 */
export function tailStart(curve: RunningDigest): number | null {
  const { peak } = curve.summary;
  if (peak === 0) return null;
  let peakSeen = false;
  for (let i = 0; i < curve.tSec.length; i++) {
    if (curve.running[i] === peak) peakSeen = true;
    else if (peakSeen && curve.running[i] <= peak * TAIL_SHARE) return curve.tSec[i];
  }
  return null;
}

function stepPath(curve: RunningDigest, x: (t: number) => number, y: (n: number) => number) {
  let d = '';
  let previous = 0;
  for (let i = 0; i < curve.tSec.length; i++) {
    const t = curve.tSec[i];
    d += d === '' ? `M${x(t)},${y(0)}` : '';
    d += `L${x(t)},${y(previous)}L${x(t)},${y(curve.running[i])}`;
    previous = curve.running[i];
  }
  return d;
}

/** Samples running over time in A and B, the tail marked, and the last samples to finish. */
export function StragglerChart({
  host,
  fileA,
  fileB,
  runningA,
  runningB,
}: {
  host: TraceHost;
  fileA: FileSummary;
  fileB: FileSummary;
  runningA: RunningDigest;
  runningB: RunningDigest;
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

  const end = Math.max(1e-9, runningA.summary.endSec, runningB.summary.endSec);
  const peak = Math.max(1, runningA.summary.peak, runningB.summary.peak);
  const innerW = WIDTH - MARGIN.left - MARGIN.right;
  const innerH = HEIGHT - MARGIN.top - MARGIN.bottom;
  const x = scaleLinear({ domain: [0, end], range: [0, innerW] });
  const y = scaleLinear({ domain: [0, peak], range: [innerH, 0], nice: true });
  const tails = [tailStart(runningA), tailStart(runningB)];

  return (
    <ChartPicture name={'stragglers'}>
      <div className="stragglers" data-testid="straggler-view">
        <svg width={WIDTH} height={HEIGHT} role="img" aria-label="Samples running over time">
          <Group left={MARGIN.left} top={MARGIN.top}>
            <path className="running-a" d={stepPath(runningA, x, y)} />
            <path className="running-b" d={stepPath(runningB, x, y)} />
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
    </ChartPicture>
  );
}
