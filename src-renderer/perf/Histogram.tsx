import { useState } from 'react';
import { scaleLinear } from '@visx/scale';
import { Group } from '@visx/group';
import { ChartAxes } from './ChartAxes';
import { useParentSize } from '@visx/responsive';
import type { BinnedValues, ValueBin } from '../../src-main/core/api/trace-api';
import { formatAxisValue, formatValue } from './value-format';
import { useAfterFirstPaint } from './use-after-first-paint';
import { ChartPicture } from '../picture/ChartPicture';

const HEIGHT = 150;
const MARGIN = { top: 8, right: 10, bottom: 24, left: 34 };

/**
 * One distribution as a visx histogram, drawn from its digest (bins and stats computed in the
 * file's worker). With `onPick` (a series: its values come from rows), a click on a bin hands
 * the bin's index to it (the timeline then shows just those samples).
 */
export function Histogram({
  title,
  unit,
  digest,
  colour,
  onPick,
  testTitle,
}: {
  title: string;
  unit: string;
  digest: BinnedValues;
  colour?: string;
  onPick?: (binIndex: number, label: string) => void;
  /** data-title for tests and scripts: "<key> (<unit>)" */
  testTitle: string;
}) {
  const { parentRef, width: measured } = useParentSize({ debounceTime: 50 });
  const width = Math.max(200, measured || 300);
  const [hover, setHover] = useState<number | null>(null);
  const { stats } = digest;
  const innerW = width - MARGIN.left - MARGIN.right;
  const innerH = HEIGHT - MARGIN.top - MARGIN.bottom;
  const { bins, maxCount } = digest;
  const lo = bins[0]?.x0 ?? 0;
  const hi = bins[bins.length - 1]?.x1 ?? 1;
  const x = scaleLinear<number>({ domain: [lo, hi], range: [0, innerW] });
  const y = scaleLinear<number>({ domain: [0, Math.max(1, maxCount)], range: [innerH, 0] });
  // counts are whole: ticks at integers only
  const yTicks = y.ticks(Math.min(4, Math.max(1, maxCount))).filter(Number.isInteger);
  const clickable = !!onPick;
  const binLabel = (bin: ValueBin) =>
    `${title} ${formatValue(bin.x0, unit)}–${formatValue(bin.x1, unit)}`;
  const hovered = hover === null ? null : bins[hover];
  // drawn in the frame after the view's first: the perf tab's charts are all below its first
  // screen, and their place (its size measured meanwhile) is kept until then
  const drawn = useAfterFirstPaint();
  if (!drawn) {
    return (
      <div
        className="histogram"
        data-testid="histogram-pending"
        data-title={testTitle}
        ref={parentRef}
      >
        <div className="histogram-title">
          <span className="histogram-name">{title}</span>
        </div>
        <div style={{ height: HEIGHT }} />
      </div>
    );
  }

  return (
    <ChartPicture name={testTitle}>
      <div
        className="histogram"
        data-testid="histogram"
        data-title={testTitle}
        data-values={digest.valueCount}
        ref={parentRef}
      >
        <div className="histogram-title">
          <span className="histogram-name">
            {colour && <span className="swatch" style={{ background: colour }} />}
            {title}
            {unit && <span className="muted"> ({unit})</span>}
          </span>
          <span className="muted histogram-stats">
            {hovered
              ? `${formatValue(hovered.x0, unit)}–${formatValue(hovered.x1, unit)}: ${hovered.count}` +
                (clickable ? ` in ${hovered.samples} samples` : '')
              : stats
                ? `n ${stats.count} · median ${formatValue(stats.median, unit)} · p90 ${formatValue(stats.p90, unit)}`
                : 'no values'}
          </span>
        </div>
        <svg width={width} height={HEIGHT} onMouseLeave={() => setHover(null)}>
          <Group left={MARGIN.left} top={MARGIN.top}>
            {bins.map((bin, i) => {
              const x0 = x(bin.x0);
              const w = Math.max(1, x(bin.x1) - x0 - 1);
              const canPick = clickable && bin.count > 0;
              return (
                <g key={i}>
                  {/* a full-height hit area: short bars are still easy to hover and click */}
                  <rect
                    x={x0}
                    width={w + 1}
                    y={0}
                    height={innerH}
                    className="bin-hit"
                    onMouseEnter={() => setHover(i)}
                    onClick={() => canPick && onPick!(i, binLabel(bin))}
                    style={{ cursor: canPick ? 'pointer' : 'default' }}
                  />
                  <rect
                    className={`bin${canPick ? ' clickable' : ''}${hover === i ? ' hover' : ''}`}
                    data-testid="histogram-bin"
                    data-count={bin.count}
                    data-x0={bin.x0}
                    data-x1={bin.x1}
                    x={x0 + 0.5}
                    width={w}
                    y={y(bin.count)}
                    height={innerH - y(bin.count)}
                    style={colour ? { fill: colour } : undefined}
                    onMouseEnter={() => setHover(i)}
                    onClick={() => canPick && onPick!(i, binLabel(bin))}
                  >
                    <title>
                      {`${formatValue(bin.x0, unit)}–${formatValue(bin.x1, unit)}: ${bin.count}` +
                        (canPick ? ' (click to show these samples)' : '')}
                    </title>
                  </rect>
                </g>
              );
            })}
            <ChartAxes
              innerH={innerH}
              x={x}
              y={y}
              xTicks={Math.max(2, Math.floor(innerW / 70))}
              xFormat={(v) => formatAxisValue(v, unit)}
              yTickValues={yTicks}
              size="small"
            />
          </Group>
        </svg>
      </div>
    </ChartPicture>
  );
}
