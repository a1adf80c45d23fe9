import { useRef } from 'react';
import type { RowDrawStats } from './draw-timeline';
import type { LaneEntry } from './lane-group';
import { laneNames } from './lane-names';
import { ROW_PADDING } from './row-layout';

/**
 * The label column of one lane timeline entry: a group's title, or a row's name from its data
 * (with what tells it apart, muted), its toggle when it opens rows below it, and an expanded
 * row's lane names (SGLang threads with their ranks, a trainer's lanes).
 */
export function LaneLabel(props: {
  entry: LaneEntry;
  top: number;
  height: number;
  laneHeight: number;
  selected: boolean;
  stats: RowDrawStats | undefined;
  onSelect(): void;
  onToggle(): void;
  /** a shiftable group's title dragged by `dx` pixels (since the last call) */
  onShift?(dx: number): void;
}) {
  const { entry } = props;
  const dragX = useRef<number | null>(null);
  if (entry.kind === 'header') {
    const { group } = entry;
    const shift = group.shiftable ? props.onShift : undefined;
    return (
      <div
        className={`lane-group-title${shift ? ' shiftable' : ''}`}
        data-testid="lane-group"
        data-group={group.id}
        title={shift ? 'Drag left or right to move these rows in time' : undefined}
        style={{ top: props.top, height: props.height }}
        onPointerDown={
          shift &&
          ((event) => {
            event.currentTarget.setPointerCapture(event.pointerId);
            dragX.current = event.clientX;
          })
        }
        onPointerMove={
          shift &&
          ((event) => {
            if (dragX.current === null) return;
            const dx = event.clientX - dragX.current;
            dragX.current = event.clientX;
            if (dx !== 0) shift(dx);
          })
        }
        onPointerUp={() => (dragX.current = null)}
      >
        <span className="lane-group-name">{group.title}</span>{' '}
        <span className="muted">{group.rows.length}</span>
        {group.note && (
          <span className="lane-group-note" data-testid="lane-group-note">
            {shift ? '⇔ ' : ''}
            {group.note}
          </span>
        )}
      </div>
    );
  }
  const { row } = entry;
  const names = row.row && row.expanded && row.laneCount > 1 ? laneNames(row.row) : null;
  return (
    <div
      className={`lane-label${props.selected ? ' selected' : ''}`}
      style={{ top: props.top, height: props.height, paddingLeft: 4 + (row.depth ?? 0) * 14 }}
      data-testid="lane-row"
      data-group={entry.group.id}
      data-key={row.key}
      data-mark={row.mark ?? ''}
      data-expanded={row.expanded ? 'true' : 'false'}
      data-lanes={row.laneCount}
      data-bars={props.stats?.bars ?? ''}
      data-links={props.stats?.links ?? ''}
      data-labels={props.stats?.labels ?? ''}
      data-pd-segments={props.stats?.pdSegments ?? ''}
      data-detail-sec={row.row?.detail?.resolutionSec ?? ''}
      title={row.title ?? [row.label, row.detail].filter(Boolean).join(' · ')}
      onClick={props.onSelect}
    >
      <div className="lane-label-head" style={{ height: props.laneHeight + ROW_PADDING / 2 }}>
        {row.opens ? (
          <button
            type="button"
            className="lane-toggle"
            data-testid="lane-toggle"
            aria-label={row.opens === 'open' ? 'Hide the rows under it' : 'Show the rows under it'}
            onClick={(event) => {
              event.stopPropagation();
              props.onToggle();
            }}
          >
            {row.opens === 'open' ? '▾' : '▸'}
          </button>
        ) : (
          <span className="lane-toggle-space" />
        )}
        <span className="lane-label-name">{row.label}</span>
        {row.detail && <span className="lane-label-detail">{row.detail}</span>}
        {row.badge && <span className="lane-label-badge">{row.badge}</span>}
        {/* lane 0 shares its line with the row's label, as on a file's timeline (RowLabel):
            last, and the first to give way when the column is narrow */}
        {names?.[0] && (
          <span className="lane0-name" data-testid="lane0-name" title={`lane 0: ${names[0]}`}>
            {names[0]}
          </span>
        )}
      </div>
      {names?.slice(1).map((name, lane) => (
        <div
          key={lane}
          className="lane-label-lane"
          data-testid="lane-name"
          style={{ top: ROW_PADDING / 2 + (lane + 1) * props.laneHeight, height: props.laneHeight }}
        >
          {name}
        </div>
      ))}
    </div>
  );
}
