import { useMemo, useState } from 'react';
import { scaleLinear } from '@visx/scale';
import { Group } from '@visx/group';
import { LinePath } from '@visx/shape';
import { useParentSize } from '@visx/responsive';
import type { TrendPoint } from '../../src-main/core/model/trend';
import { ChartAxes } from '../perf/ChartAxes';
import { formatAxisValue, formatValue } from '../perf/value-format';
import { displayUnit } from './display-unit';
import { ChartPicture } from '../picture/ChartPicture';

const HEIGHT = 180;
const MARGIN = { top: 12, right: 16, bottom: 26, left: 48 };
const SERIES_COLOUR = { rollout: 'var(--accent)', eval: 'var(--warn, #d08a00)' } as const;

/**
 * One figure across a run's rollouts: x = rollout id, a line per series (rollouts, evals),
 * a dot per dump. Hover says the value with its unit; a click opens that rollout; with Shift
 * (or Ctrl/Cmd) a click picks it for comparing.
 */
export function TrendChart(props: {
  metric: string;
  label: string;
  unit: string;
  points: TrendPoint[];
  picked: string[];
  onOpen(point: TrendPoint): void;
  onPick(point: TrendPoint): void;
  /** whether the y axis starts at 0 (default); a ratio around 1 reads better without */
  fromZero?: boolean;
  /** a line more on hover (each DP rank's tokens beside their balance) */
  note?: (point: TrendPoint) => string | null;
}) {
  const { parentRef, width: measured } = useParentSize({ debounceTime: 50 });
  const width = Math.max(300, measured || 520);
  const innerW = width - MARGIN.left - MARGIN.right;
  const innerH = HEIGHT - MARGIN.top - MARGIN.bottom;
  const [hover, setHover] = useState<TrendPoint | null>(null);
  const plotted = useMemo(
    () =>
      props.points.filter((p) => p.rolloutId !== null && Number.isFinite(p.figures[props.metric])),
    [props.points, props.metric],
  );
  const ids = plotted.map((p) => p.rolloutId!);
  const display = displayUnit(
    props.unit,
    plotted.map((p) => p.figures[props.metric]),
  );
  const value = (p: TrendPoint) => p.figures[props.metric] / display.divisor;
  const values = plotted.map(value);
  const x = useMemo(() => {
    const lo = Math.min(...ids, 0);
    const hi = Math.max(...ids, lo + 1);
    return scaleLinear<number>({ domain: [lo, hi], range: [0, innerW] });
  }, [ids, innerW]);
  const fromZero = props.fromZero ?? true;
  const y = useMemo(() => {
    if (!fromZero) {
      // a ratio near 1: its moves are what matters, an axis from 0 would flatten them
      const lo = Math.min(...values);
      const hi = Math.max(...values);
      const pad = hi > lo ? 0 : Math.abs(lo) * 0.01 || 1;
      return scaleLinear<number>({ domain: [lo - pad, hi + pad], range: [innerH, 0], nice: true });
    }
    const lo = Math.min(0, ...values);
    // counts that are all zero still get an axis of whole numbers
    const hi = Math.max(...values, lo + (values.every(Number.isInteger) ? 1 : 1e-9));
    return scaleLinear<number>({ domain: [lo, hi], range: [innerH, 0], nice: true });
  }, [values, innerH, fromZero]);
  const series = (['rollout', 'eval'] as const).map((name) => ({
    name,
    points: plotted.filter((p) => p.series === name).sort((a, b) => a.rolloutId! - b.rolloutId!),
  }));
  const missing = props.points.length - plotted.length;

  return (
    <ChartPicture name={props.metric}>
      <div
        className="trend-chart"
        ref={parentRef}
        data-testid="trend-chart"
        data-metric={props.metric}
      >
        <div className="trend-chart-title">
          {props.label}
          {display.label && <span className="muted"> ({display.label})</span>}
          {missing > 0 && <span className="muted"> · {missing} without it</span>}
        </div>
        <svg width={width} height={HEIGHT}>
          <Group left={MARGIN.left} top={MARGIN.top}>
            <ChartAxes
              innerH={innerH}
              x={x}
              y={y}
              xFormat={(v) => (Number.isInteger(v) ? String(v) : '')}
              yFormat={(v) => formatAxisValue(v, display.unit === 's' ? '' : display.unit)}
              xTicks={Math.min(10, Math.max(2, ids.length))}
              yTicks={4}
              yTickValues={integerTicks(values, y.domain())}
              size="normal"
            />
            {series.map(({ name, points }) =>
              points.length > 1 ? (
                <LinePath
                  key={name}
                  data={points}
                  x={(p) => x(p.rolloutId!)}
                  y={(p) => y(value(p))}
                  stroke={SERIES_COLOUR[name]}
                  strokeWidth={1.5}
                  strokeDasharray={name === 'eval' ? '4 3' : undefined}
                />
              ) : null,
            )}
            {plotted.map((point) => {
              const picked = props.picked.includes(point.path);
              return (
                <circle
                  key={point.path}
                  data-testid="trend-point"
                  data-name={point.name}
                  data-value={point.figures[props.metric]}
                  cx={x(point.rolloutId!)}
                  cy={y(value(point))}
                  r={hover === point || picked ? 5.5 : 4}
                  fill={picked ? 'var(--fg)' : SERIES_COLOUR[point.series]}
                  stroke="var(--bg)"
                  strokeWidth={1.5}
                  style={{ cursor: 'pointer' }}
                  onMouseEnter={() => setHover(point)}
                  onMouseLeave={() => setHover(null)}
                  onClick={(event) =>
                    event.shiftKey || event.ctrlKey || event.metaKey
                      ? props.onPick(point)
                      : props.onOpen(point)
                  }
                >
                  <title>{`${point.name}: ${formatValue(point.figures[props.metric], props.unit)}`}</title>
                </circle>
              );
            })}
          </Group>
        </svg>
        {hover && (
          <div
            className="trend-tooltip"
            data-testid="trend-tooltip"
            style={{
              left: Math.min(width - 180, MARGIN.left + x(hover.rolloutId!) + 10),
              top: MARGIN.top + y(value(hover)) + 24,
            }}
          >
            <strong>{hover.name}</strong> · {hover.series} {hover.rolloutId}
            <br />
            {props.label}: {formatValue(hover.figures[props.metric], props.unit)}
            {props.note?.(hover) && <div data-testid="trend-note">{props.note(hover)}</div>}
            <div className="muted">click: open · shift+click: pick to compare</div>
          </div>
        )}
      </div>
    </ChartPicture>
  );
}

/** Whole-number ticks for counts on a short axis (0, 1, 2 rather than 0.2, 0.4, ...). */
function integerTicks(values: number[], [lo, hi]: number[]): number[] | undefined {
  if (!values.every(Number.isInteger) || hi - lo > 5) return undefined;
  const ticks: number[] = [];
  for (let t = Math.ceil(lo); t <= hi; t++) ticks.push(t);
  return ticks;
}
