import type { RowView } from '../../src-main/core/api/trace-api';
import type { RowDrawStats } from './draw-timeline';
import { STATUS_COLOURS } from './span-colours';

/** The label column of one row: index, group, source, status pill, reward; lane toggle. */
export function RowLabel(props: {
  rowId: number;
  row: RowView | undefined;
  top: number;
  height: number;
  lanes: number;
  expanded: boolean;
  selected: boolean;
  dimmed: boolean;
  stats: RowDrawStats | undefined;
  onToggle: () => void;
  onSelect: () => void;
}) {
  const { row, stats } = props;
  return (
    <div
      className={`row-label${props.selected ? ' selected' : ''}${props.dimmed ? ' dimmed' : ''}`}
      style={{ top: props.top, height: props.height }}
      data-testid="timeline-row"
      data-row-id={props.rowId}
      data-lanes={props.lanes}
      data-expanded={props.expanded}
      data-bars={stats?.bars ?? ''}
      data-markers={stats?.markers ?? ''}
      data-orphans={stats?.orphans ?? ''}
      data-ongoing={stats?.ongoing ?? ''}
      data-pd-segments={stats?.pdSegments ?? ''}
      data-links={stats?.links ?? ''}
      data-idle-gaps={stats?.idleGaps ?? ''}
      onClick={props.onSelect}
    >
      <button
        type="button"
        className="lane-toggle"
        aria-label={props.expanded ? 'Collapse row' : 'Expand row'}
        onClick={(event) => {
          event.stopPropagation();
          props.onToggle();
        }}
        disabled={props.lanes <= 1}
      >
        {props.lanes <= 1 ? '·' : props.expanded ? '▾' : '▸'}
      </button>
      {row ? (
        <>
          <span className="row-index">#{String(row.sampleIndex)}</span>
          {row.groupIndex !== null && <span className="row-group">g{String(row.groupIndex)}</span>}
          <span className="row-source" title={row.source ?? ''}>
            {row.source ?? ''}
          </span>
          {row.status && (
            <span
              className="status-pill"
              style={{ background: STATUS_COLOURS[row.status] ?? '#8c959f' }}
            >
              {row.status}
            </span>
          )}
          {rewardText(row.reward) && <span className="row-reward">{rewardText(row.reward)}</span>}
        </>
      ) : (
        <span className="muted">…</span>
      )}
    </div>
  );
}

function rewardText(reward: unknown): string {
  if (typeof reward === 'number') return reward.toFixed(2);
  if (
    reward &&
    typeof reward === 'object' &&
    typeof (reward as { score?: unknown }).score === 'number'
  ) {
    return (reward as { score: number }).score.toFixed(2);
  }
  return '';
}
