import type { RowView } from '../../src-main/core/api/trace-api';
import { nameColour } from './run-model';
import { xOf, type TimeScale } from './RunAxis';

const LANE_PX = 12;

export interface TrainerRow {
  file: number;
  /** the file's name, to tell two timelines of one rank apart */
  fileName: string;
  /** epoch seconds of the file's start: item times are relative to it */
  originSec: number;
  row: RowView;
}

/**
 * A lane group per trainer process (role, rank): training phases and weight syncs (per bucket)
 * as bars, events as ticks, on the run's clock. A click selects the record for details.
 */
export function TrainerLanes({
  rows,
  scale,
  labelWidth,
  onSelect,
}: {
  rows: TrainerRow[];
  scale: TimeScale;
  labelWidth: number;
  onSelect(row: TrainerRow, index: number): void;
}) {
  return (
    <div className="run-trainer" data-testid="run-trainer">
      {rows.map((t) => {
        const height = Math.max(1, t.row.laneCount) * LANE_PX + 4;
        return (
          <div
            className="run-lane-group"
            key={`${t.file}:${t.row.rowId}`}
            data-testid="run-trainer-group"
          >
            <div
              className="run-label"
              style={{ width: labelWidth }}
              title={`${t.row.source} (${t.fileName})`}
            >
              {t.row.source} <span className="run-file-name">{t.fileName}</span>
            </div>
            <svg width={scale.width} height={height}>
              {t.row.items.map((item) => {
                const x = xOf(scale, t.originSec + item.startSec);
                const y = item.lane * LANE_PX + 2;
                if (item.kind !== 'span') {
                  return (
                    <line
                      key={item.index}
                      x1={x}
                      x2={x}
                      y1={y}
                      y2={y + LANE_PX - 2}
                      className="run-event-tick"
                      onClick={() => onSelect(t, item.index)}
                    >
                      <title>{item.name}</title>
                    </line>
                  );
                }
                const w = Math.max(1, xOf(scale, t.originSec + item.endSec) - x);
                return (
                  <rect
                    key={item.index}
                    x={x}
                    y={y}
                    width={w}
                    height={LANE_PX - 2}
                    fill={nameColour(item.name)}
                    data-testid="run-trainer-span"
                    data-name={item.name}
                    onClick={() => onSelect(t, item.index)}
                  >
                    <title>{item.name}</title>
                  </rect>
                );
              })}
            </svg>
          </div>
        );
      })}
    </div>
  );
}
