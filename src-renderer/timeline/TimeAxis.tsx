import { useState } from 'react';
import type { Window } from './time-window';
import { placeTickLabel } from './time-format';
import { AXIS_HEIGHT } from './row-layout';
import { axisTicks, type TimelineClock } from './timeline-clock';

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
  const ticks = axisTicks(w, width, clock);
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
          const place = placeTickLabel(tick, width);
          return (
            <g key={tick.sec} data-testid="axis-tick">
              <line
                x1={tick.x}
                x2={tick.x}
                y1={AXIS_HEIGHT - 6}
                y2={AXIS_HEIGHT}
                className="axis-tick"
              />
              <text
                x={place.x}
                y={AXIS_HEIGHT - 10}
                textAnchor={place.anchor}
                className="axis-label"
              >
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
