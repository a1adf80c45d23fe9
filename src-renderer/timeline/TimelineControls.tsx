import { useViewStore } from '../state/view-store';
import { LANE_HEIGHTS } from './row-layout';

/** Density and clock controls beside the legend: lane height, expand/collapse all, wall clock. */
export function TimelineControls(props: {
  allExpanded: boolean;
  onSetAllExpanded(expanded: boolean): void;
  wallClock: boolean;
  onWallClock(on: boolean): void;
}) {
  const laneHeight = useViewStore((s) => s.laneHeight);
  const setLaneHeight = useViewStore((s) => s.setLaneHeight);
  return (
    <>
      <label className="density-control" title="Lane height (density)">
        Lanes
        <select
          value={laneHeight}
          onChange={(event) => setLaneHeight(Number(event.target.value))}
          data-testid="lane-height"
        >
          {LANE_HEIGHTS.map((px) => (
            <option key={px} value={px}>
              {px} px
            </option>
          ))}
        </select>
      </label>
      <button
        type="button"
        className="button small"
        onClick={() => props.onSetAllExpanded(!props.allExpanded)}
        data-testid="toggle-all-lanes"
      >
        {props.allExpanded ? 'Collapse all rows' : 'Expand all rows'}
      </button>
      <button
        type="button"
        className="button small"
        aria-pressed={props.wallClock}
        onClick={() => props.onWallClock(!props.wallClock)}
        data-testid="wall-clock"
      >
        {props.wallClock ? 'Wall clock' : 'From start'}
      </button>
    </>
  );
}
