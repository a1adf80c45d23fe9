import { useMemo, useState } from 'react';
import { scaleLinear } from '@visx/scale';
import { Group } from '@visx/group';
import { ChartAxes } from './ChartAxes';
import { useParentSize } from '@visx/responsive';
import type { RunningDigest } from '../../src-main/core/api/trace-api';
import { countAt, runningPath } from './running-summary';
import { formatAxisValue, formatValue } from './value-format';
import { ChartPicture } from '../picture/ChartPicture';

const HEIGHT = 170;
const MARGIN = { top: 10, right: 14, bottom: 24, left: 38 };

/**
 * Samples running over the rollout as a step chart, with the long tail shaded: the stretch at
 * the end where a few stragglers keep the whole rollout waiting.
 */
export function RunningChart({ running }: { running: RunningDigest }) {
  const { summary } = running;
  const { parentRef, width: measured } = useParentSize({ debounceTime: 50 });
  const width = Math.max(320, measured || 640);
  const innerW = width - MARGIN.left - MARGIN.right;
  const innerH = HEIGHT - MARGIN.top - MARGIN.bottom;
  const x = useMemo(
    () => scaleLinear<number>({ domain: [0, Math.max(1e-9, summary.endSec)], range: [0, innerW] }),
    [summary.endSec, innerW],
  );
  const y = useMemo(
    () =>
      scaleLinear<number>({
        domain: [0, Math.max(1, summary.peak)],
        range: [innerH, 0],
        nice: true,
      }),
    [summary.peak, innerH],
  );
  const path = useMemo(() => runningPath(running, x, y), [running, x, y]);
  const [hoverSec, setHoverSec] = useState<number | null>(null);
  const hoverCount = hoverSec === null ? null : countAt(running, hoverSec);
  const tail = summary.tailStartSec;

  return (
    <ChartPicture name={'samples-running'}>
      <div className="running-chart" ref={parentRef}>
        <svg
          width={width}
          height={HEIGHT}
          data-testid="running-chart"
          onMouseMove={(event) => {
            const box = event.currentTarget.getBoundingClientRect();
            const px = event.clientX - box.left - MARGIN.left;
            setHoverSec(px < 0 || px > innerW ? null : x.invert(px));
          }}
          onMouseLeave={() => setHoverSec(null)}
        >
          <Group left={MARGIN.left} top={MARGIN.top}>
            {tail !== null && (
              <g data-testid="running-tail">
                <rect
                  className="tail-band"
                  x={x(tail)}
                  width={Math.max(0, x(summary.endSec) - x(tail))}
                  y={0}
                  height={innerH}
                />
                {/* past the middle the label reads leftwards from the band, inside the chart */}
                <text
                  className="tail-label"
                  x={x(tail) > innerW / 2 ? x(tail) - 4 : x(tail) + 4}
                  textAnchor={x(tail) > innerW / 2 ? 'end' : 'start'}
                  y={12}
                >
                  long tail: ≤{summary.tailMax} running for{' '}
                  {formatValue(summary.endSec - tail, 's')} ({(summary.tailShare * 100).toFixed(0)}%
                  of the rollout)
                </text>
              </g>
            )}
            <path d={path} className="running-area" />
            {hoverSec !== null && (
              <g pointerEvents="none">
                <line x1={x(hoverSec)} x2={x(hoverSec)} y1={0} y2={innerH} className="hover-line" />
                <text
                  x={Math.min(x(hoverSec) + 4, innerW - 120)}
                  y={innerH - 6}
                  className="hover-label"
                >
                  {formatValue(hoverSec, 's')}: {hoverCount} running
                </text>
              </g>
            )}
            <ChartAxes
              innerH={innerH}
              x={x}
              y={y}
              xTicks={Math.max(2, Math.floor(innerW / 80))}
              xFormat={(v) => formatAxisValue(v, 's')}
              yTickValues={y.ticks(4).filter(Number.isInteger)}
              // counts as 100k, not 100000: the label column is 38 px wide
              yFormat={(v) => formatAxisValue(v, 'samples')}
              size="small"
            />
          </Group>
        </svg>
      </div>
    </ChartPicture>
  );
}
