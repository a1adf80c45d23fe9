import type { RunJoins } from '../../src-main/core/api/trace-api';
import type { Window } from '../timeline/time-window';
import { BAND_LINE_PX as LINE_PX, runBandStrip } from './run-bands';

/**
 * Above the run's axis, on its window: each rollout's extent as a band and each weight version
 * where its sync completed (runBandStrip). Bands whose labels would meet go on a second line;
 * past that the label is left out and the band's hover names it.
 */
export function RunBands(props: {
  joins: RunJoins;
  /** epoch seconds of the run clock's zero */
  zeroSec: number;
  window: Window;
  width: number;
}) {
  const { width } = props;
  const { rollouts, syncs, lines, height } = runBandStrip(
    props.joins,
    props.zeroSec,
    props.window,
    width,
  );
  return (
    <svg className="run-axis" width={width} height={height} data-testid="run-axis">
      {rollouts.map((r) => {
        const { line, elided } = r;
        if (r.x1 < 0 || r.x0 > width) return null;
        return (
          <g key={r.key} data-testid="run-rollout-band" data-line={line} data-elided={elided}>
            <title>{r.label}</title>
            <rect
              x={r.x0}
              y={line * LINE_PX + 1}
              width={r.x1 - r.x0}
              height={LINE_PX - 2}
              className="run-rollout-band"
              rx={2}
            />
            {elided ? null : (
              <text x={Math.max(r.x0, 0) + 3} y={line * LINE_PX + 12} className="run-axis-label">
                {r.label}
              </text>
            )}
          </g>
        );
      })}
      {syncs.map((s) =>
        s.x < -20 || s.x > width + 20 ? null : (
          <g key={s.key} data-testid="run-version-mark" data-elided={s.elided}>
            <title>weight version {s.label.slice(1)} synced</title>
            <line x1={s.x} x2={s.x} y1={0} y2={height} className="run-version-line" />
            {s.elided ? null : (
              <text x={s.x + 2} y={lines * LINE_PX + 12} className="run-version-label">
                {s.label}
              </text>
            )}
          </g>
        ),
      )}
    </svg>
  );
}
