import type { RowView } from '../../src-main/core/api/trace-api';
import type { ShownOrder } from '../host/shown-order';
import { cursorCounts } from './cursor-counts';

/**
 * The line under the timeline: at the cursor's time, how many samples had not started, were
 * running and had finished, and what was alive in the row under the pointer; else the keys.
 */
export function CursorReadout(props: {
  order: ShownOrder | null;
  cursorSec: number | null;
  hoverRow: RowView | undefined;
  /** a time in the axis' format at the current zoom */
  clock: (sec: number) => string;
  /** the same time exact to the microsecond */
  exactClock: (sec: number) => string;
}) {
  const { order, cursorSec, hoverRow, clock, exactClock } = props;
  const counts = cursorSec === null || !order ? null : cursorCounts(order, cursorSec);
  return (
    <div className="cursor-readout" data-testid="cursor-readout">
      {counts && cursorSec !== null ? (
        <>
          at <span title={exactClock(cursorSec)}>{clock(cursorSec)}</span>:{' '}
          <b>{counts.notStarted}</b> not started · <b>{counts.running}</b> running ·{' '}
          <b>{counts.finished}</b> finished
          {hoverRow && (
            <span className="muted">
              {' '}
              · alive in #{String(hoverRow.sampleIndex)}:{' '}
              {hoverRow.items
                .filter(
                  (i) => i.kind === 'span' && i.startSec <= cursorSec && i.endSec >= cursorSec,
                )
                .map((i) => i.name)
                .slice(0, 6)
                .join(', ') || '—'}
            </span>
          )}
        </>
      ) : (
        <span className="muted">
          Ctrl+wheel or pinch zooms · drag or Shift+wheel pans · W/S zoom · A/D pan · 0 fits all · F
          fits the selection
        </span>
      )}
    </div>
  );
}
