import type { ItemView } from '../../src-main/core/api/trace-api';
import { formatDuration } from './time-format';
import { linkedItems } from './item-links';
import type { PhaseSegment } from './pd-segments';

/**
 * What the pointer is over: for a PD span first the phase under the pointer, then name, clock
 * times in the axis' format, duration, all its phases.
 */
export function TimelineTooltip(props: {
  item: ItemView;
  /** the PD phase segment under the pointer, when the item is a PD span */
  phase?: PhaseSegment | null;
  /** the row it belongs to, where the view's rows are of many kinds (a run) */
  row?: string;
  /** the row's items: the ones the item is linked with are named */
  rowItems?: readonly ItemView[];
  left: number;
  top: number;
  /** a time in the axis' format at the current zoom */
  clock: (sec: number) => string;
}) {
  const { item, clock } = props;
  const linked = props.rowItems ? linkedItems(props.rowItems, item) : null;
  return (
    <div className="tooltip" data-testid="tooltip" style={{ left: props.left, top: props.top }}>
      {props.phase && item.pd && (
        <div className="tooltip-phase" data-testid="tooltip-phase">
          {item.pd.role} {props.phase.phase.replace(/_/g, ' ')}{' '}
          {formatDuration(props.phase.durationSec)}
        </div>
      )}
      <div className="tooltip-name">{item.name}</div>
      {item.kind === 'span' ? (
        <div>
          {clock(item.startSec)} → {clock(item.endSec)} (
          {formatDuration(item.endSec - item.startSec)})
        </div>
      ) : (
        <div>
          {item.kind === 'orphan' ? 'unmatched end at ' : 'at '}
          {clock(item.startSec)}
        </div>
      )}
      {item.ongoing && (
        <div className="tooltip-warn">
          ongoing: never ended; drawn until {item.clippedBy?.replace(/_/g, ' ')}
        </div>
      )}
      {item.pd && (
        <div>
          {item.pd.role} phases:{' '}
          {item.pd.phases.map((p) => `${p.phase} ${formatDuration(p.durationSec)}`).join(', ')}
        </div>
      )}
      {item.category && (
        <div className="muted" data-testid="tooltip-category">
          {item.category} kernel
        </div>
      )}
      {linked && linked.from.length > 0 && (
        <div data-testid="tooltip-flow-from">
          ← from {linked.from[0].name} at {clock(linked.from[0].startSec)}
          {linked.from.length > 1 ? ` (+${linked.from.length - 1})` : ''}
        </div>
      )}
      {linked && linked.to.length > 0 && (
        <div data-testid="tooltip-flow-to">
          → to {linked.to[0].name} at {clock(linked.to[0].startSec)}
          {linked.to.length > 1 ? ` (+${linked.to.length - 1})` : ''}
        </div>
      )}
      {item.hint && (
        <div className="muted" data-testid="tooltip-hint">
          {item.hint}
        </div>
      )}
      {item.laneLabel && (
        <div className="muted" data-testid="tooltip-lane">
          {item.laneLabel}
        </div>
      )}
      {props.row && (
        <div className="muted" data-testid="tooltip-row">
          {props.row}
        </div>
      )}
    </div>
  );
}
