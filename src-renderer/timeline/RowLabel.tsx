import type { RowView } from '../../src-main/core/api/trace-api';
import type { RowDrawStats } from './draw-timeline';
import { STATUS_COLOURS } from './span-colours';
import { ROW_PADDING } from './row-layout';
import { laneNames } from './lane-names';
import { rowLabelTexts } from './row-label-text';

/**
 * The label column of one row: index, group, source, status pill, reward (fixed columns wide
 * enough for the file's largest index and group, so they never run into each other); an
 * expanded row names its lanes (lane 0 after the reward, and in the row info's title); the lane
 * toggle.
 */
export function RowLabel(props: {
  rowId: number;
  row: RowView | undefined;
  /** why the row could not be fetched */
  error?: string;
  /** capabilities.namedRows: the row's label is its name, shown before its source */
  named: boolean;
  top: number;
  height: number;
  lanes: number;
  laneHeight: number;
  expanded: boolean;
  selected: boolean;
  dimmed: boolean;
  stats: RowDrawStats | undefined;
  onToggle: () => void;
  onSelect: () => void;
}) {
  const { row, stats, laneHeight } = props;
  const names = row && props.expanded && props.lanes > 1 ? laneNames(row) : null;
  const compact = laneHeight < 16;
  const texts = row ? rowLabelTexts(row) : null;
  const name = props.named && typeof row?.label === 'string' ? row.label : null;
  return (
    <div
      className={`row-label${props.selected ? ' selected' : ''}${props.dimmed ? ' dimmed' : ''}${compact ? ' compact' : ''}${names ? ' with-lanes' : ''}`}
      style={{ top: props.top, height: props.height, fontSize: compact ? 10 : undefined }}
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
      data-rail-marks={stats?.railMarks ?? ''}
      data-idle-gaps={stats?.idleGaps ?? ''}
      data-labels={stats?.labels ?? ''}
      data-highlighted={stats?.highlighted ?? ''}
      data-detail-sec={row?.detail?.resolutionSec ?? ''}
      onClick={props.onSelect}
    >
      <div
        className="row-info"
        style={{ height: laneHeight + ROW_PADDING / 2 }}
        title={names?.[0] ? `lane 0: ${names[0]}` : undefined}
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
        {texts ? (
          <>
            <span className="row-index" data-testid="row-index">
              {texts.index}
            </span>
            <span className="row-group">{texts.group}</span>
            {name !== null && (
              <span className="row-name" data-testid="row-name" title={name}>
                {name}
              </span>
            )}
            <span
              className={`row-source${name !== null ? ' beside-name' : ''}`}
              title={texts.source}
            >
              {texts.source}
            </span>
            {texts.status && (
              <span
                className="status-pill"
                style={{ background: STATUS_COLOURS[texts.status] ?? '#8c959f' }}
              >
                {texts.status}
              </span>
            )}
            {texts.reward && <span className="row-reward">{texts.reward}</span>}
            {/* lane 0 shares its line with the row info: its name comes last and gives way
                first (ellipsis, then nothing) when the column is narrow; the title keeps it */}
            {names?.[0] && (
              <span className="lane0-name" data-testid="lane0-name">
                {names[0]}
              </span>
            )}
          </>
        ) : props.error !== undefined ? (
          <span className="row-error" data-testid="row-error" title={props.error}>
            could not be read: {props.error}
          </span>
        ) : (
          <span className="muted">…</span>
        )}
      </div>
      {names &&
        names.map((name, lane) =>
          lane === 0 || !name ? null : (
            <div
              key={lane}
              className="lane-name"
              data-testid="lane-name"
              title={name}
              style={{ top: ROW_PADDING / 2 + lane * laneHeight, height: laneHeight }}
            >
              {name}
            </div>
          ),
        )}
    </div>
  );
}
