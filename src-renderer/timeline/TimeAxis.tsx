import { useState } from 'react';
import type { Window } from './time-window';
import { buildTicks, labelWidthPx } from './time-format';
import type { TimelineClock } from './timeline-clock';

export const AXIS_HEIGHT = 28;

/**
 * The time axis: ticks at round steps of the timeline's clock (from the file's start, from a
 * compared rollout's own window start, or the wall clock), first and last labels kept inside
 * the axis; dragging over it zooms to the dragged range.
 */
export function TimeAxis(props: {
  window: Window;
  width: number;
  left: number;
  /** what the window's file seconds read as */
  clock: TimelineClock;
  onZoomTo(window: Window): void;
}) {
  const { window: w, width, clock } = props;
  const [brush, setBrush] = useState<{ from: number; to: number } | null>(null);
  // ticks sit at round times of the clock shown, not of the file
  const shift = clock.shownMinusFileSec;
  const ticks = buildTicks(shift + w.startSec, shift + w.endSec, width);
  const toSec = (clientX: number, el: Element) => {
    const rect = el.getBoundingClientRect();
    return w.startSec + ((clientX - rect.left) / rect.width) * (w.endSec - w.startSec);
  };
  const xOf = (sec: number) => ((sec - w.startSec) / (w.endSec - w.startSec)) * width;
  return (
    <div
      className="time-axis"
      data-testid="time-axis"
      data-start={w.startSec}
      data-end={w.endSec}
      data-clock={clock.wall ? 'wall' : 'from-start'}
      style={{ marginLeft: props.left, height: AXIS_HEIGHT }}
      onMouseDown={(event) => {
        const sec = toSec(event.clientX, event.currentTarget);
        setBrush({ from: sec, to: sec });
      }}
      onMouseMove={(event) =>
        brush && setBrush({ ...brush, to: toSec(event.clientX, event.currentTarget) })
      }
      onMouseUp={() => {
        if (brush && Math.abs(brush.to - brush.from) > (w.endSec - w.startSec) / 500) {
          props.onZoomTo({
            startSec: Math.min(brush.from, brush.to),
            endSec: Math.max(brush.from, brush.to),
          });
        }
        setBrush(null);
      }}
      onMouseLeave={() => setBrush(null)}
      title="Drag over the axis to zoom to a range"
    >
      <svg width={width} height={AXIS_HEIGHT}>
        <line
          x1={0}
          x2={width}
          y1={AXIS_HEIGHT - 0.5}
          y2={AXIS_HEIGHT - 0.5}
          className="axis-line"
        />
        {ticks.map((tick) => {
          // the first and last labels are kept whole inside the axis
          const half = labelWidthPx(tick.label) / 2;
          const anchor = tick.x - half < 0 ? 'start' : tick.x + half > width ? 'end' : 'middle';
          const labelX =
            anchor === 'start'
              ? Math.max(0, tick.x - 2)
              : anchor === 'end'
                ? Math.min(width, tick.x + 2)
                : tick.x;
          return (
            <g key={tick.sec} data-testid="axis-tick">
              <line
                x1={tick.x}
                x2={tick.x}
                y1={AXIS_HEIGHT - 6}
                y2={AXIS_HEIGHT}
                className="axis-tick"
              />
              <text x={labelX} y={AXIS_HEIGHT - 10} textAnchor={anchor} className="axis-label">
                {tick.label}
              </text>
            </g>
          );
        })}
        {brush && (
          <rect
            className="axis-brush"
            x={Math.min(xOf(brush.from), xOf(brush.to))}
            width={Math.abs(xOf(brush.to) - xOf(brush.from))}
            y={0}
            height={AXIS_HEIGHT}
          />
        )}
      </svg>
    </div>
  );
}
