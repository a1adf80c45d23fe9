import type { ReactNode } from 'react';
import { AXIS_HEIGHT } from './row-layout';
import type { TimelinePlot } from './use-timeline-plot';
import { TimeAxis } from './TimeAxis';
import { TimelineTooltip } from './TimelineTooltip';

/**
 * A timeline's body, whatever its rows: the time axis (its brush zooms), the scrolled rows with
 * the view's label column beside the canvas, the cursor line and the hovered item's tooltip.
 */
export function TimelineBody(props: {
  plot: TimelinePlot;
  labelWidth: number;
  canvasTestId: string;
  /** the label column (the view's `.timeline-labels`) */
  labels: ReactNode;
  /** beside the canvas in the scrolled content (the label column's resizer) */
  children?: ReactNode;
  /** over the body (a note that nothing matches) */
  overlay?: ReactNode;
  /** the hovered row's name in the tooltip, when the item's own names do not say it */
  tooltipRow?: string;
}) {
  const { plot, labelWidth } = props;
  const { box, viewport, width: canvasWidth } = plot;
  const { viewHeight, scrollTop } = box;
  const { hover, hoverItem } = plot;
  return (
    <div className="timeline-body" ref={box.body}>
      <TimeAxis
        window={viewport.window}
        width={canvasWidth}
        left={labelWidth}
        clock={plot.clock}
        onZoomTo={viewport.setWindow}
      />
      <div
        className="timeline-scroll"
        ref={box.scroller}
        style={{ height: viewHeight }}
        onScroll={box.onScroll}
      >
        <div
          className="timeline-content"
          style={{ height: Math.max(plot.layout.total, viewHeight) }}
        >
          {props.labels}
          {props.children}
          <canvas
            ref={plot.canvas}
            className="timeline-canvas"
            data-testid={props.canvasTestId}
            style={{ left: labelWidth, top: scrollTop, width: canvasWidth, height: viewHeight }}
            {...plot.pointer}
          />
          {plot.cursorX !== null && (
            <div
              className="cursor-line"
              data-testid="cursor-line"
              style={{ left: labelWidth + plot.cursorX, top: scrollTop, height: viewHeight }}
            />
          )}
        </div>
      </div>
      {props.overlay}
      {hover?.hit && hoverItem && (
        <TimelineTooltip
          item={hoverItem}
          phase={plot.hoverPhase}
          row={props.tooltipRow}
          rowItems={plot.hoverRow?.items}
          left={Math.min(labelWidth + hover.x + 14, box.width - 300)}
          top={hover.y + AXIS_HEIGHT + 12}
          clock={plot.clockText}
        />
      )}
    </div>
  );
}
