import { AxisBottom, AxisLeft, type AxisScale, type TickRendererProps } from '@visx/axis';

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
        tickComponent={TickLabel}
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
        tickComponent={TickLabel}
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

/**
 * A tick label as one SVG text, where visx's Text would be (same place: its offsets as dx/dy).
 * Text measures each word's width to wrap lines (a forced layout per new label), which these
 * one-line labels never need: the perf tab's first paint waited for some eighty of them.
 */
function TickLabel({
  formattedValue,
  x,
  y,
  dx,
  dy,
  fill,
  fontSize,
  fontFamily,
  textAnchor,
}: TickRendererProps) {
  return (
    <text
      x={x}
      y={y}
      dx={dx}
      dy={dy}
      fill={fill}
      fontSize={fontSize}
      fontFamily={fontFamily}
      textAnchor={textAnchor}
    >
      {formattedValue}
    </text>
  );
}
