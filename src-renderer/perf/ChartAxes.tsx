import { AxisBottom, AxisLeft, type AxisScale } from '@visx/axis';

/**
 * The x and y axes every chart here draws, in theme colours: `small` for the perf view's
 * cards, `normal` for the compare view's wider charts.
 */
export function ChartAxes(props: {
  innerH: number;
  x: AxisScale<number>;
  y: AxisScale<number>;
  xFormat: (value: number) => string;
  xTicks: number;
  /** y tick labels (default: the number as it is) */
  yFormat?: (value: number) => string;
  /** explicit y tick values, else `yTicks` evenly spaced ones */
  yTickValues?: number[];
  yTicks?: number;
  size: 'small' | 'normal';
}) {
  const small = props.size === 'small';
  const fontSize = small ? 9 : 10;
  const stroke = small ? 'var(--border)' : 'var(--fg-muted)';
  return (
    <>
      <AxisBottom
        top={props.innerH}
        scale={props.x}
        numTicks={props.xTicks}
        tickFormat={(v) => props.xFormat(Number(v))}
        stroke={stroke}
        tickStroke="var(--fg-muted)"
        // the last label ends at its tick (and the first starts at it) so neither is clipped
        tickLabelProps={(_value, index, values) => ({
          fill: 'var(--fg-muted)',
          fontSize,
          textAnchor:
            values.length > 1 && index === values.length - 1
              ? 'end'
              : index === 0 && values.length > 1
                ? 'start'
                : 'middle',
        })}
      />
      <AxisLeft
        scale={props.y}
        tickValues={props.yTickValues}
        numTicks={props.yTicks}
        tickFormat={(v) => (props.yFormat ? props.yFormat(Number(v)) : String(v))}
        stroke={stroke}
        tickStroke="var(--fg-muted)"
        tickLabelProps={{
          fill: 'var(--fg-muted)',
          fontSize,
          textAnchor: 'end',
          dx: small ? -3 : -4,
          dy: 3,
        }}
      />
    </>
  );
}
