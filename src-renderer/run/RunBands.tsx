import type { RunJoins } from '../../src-main/core/api/trace-api';
import type { Window } from '../timeline/time-window';
import { placeBands } from './run-bands';

const LINE_PX = 16;
const MAX_LINES = 2;
/** about the width of a 10 px label's character */
const CHAR_PX = 6;

/**
 * Above the run's axis, on its window: each rollout's extent as a band and each weight version
 * where its sync completed. Bands whose labels would meet go on a second line; past that the
 * label is left out and the band's hover names it.
 */
export function RunBands(props: {
  joins: RunJoins;
  /** epoch seconds of the run clock's zero */
  zeroSec: number;
  window: Window;
  width: number;
}) {
  const { joins, zeroSec, window: w, width } = props;
  const xOf = (epochSec: number) =>
    ((epochSec - zeroSec - w.startSec) / (w.endSec - w.startSec)) * width;
  const rollouts = joins.rollouts.map((r) => {
    const label = `rollout ${String(r.rolloutId)}${r.weightVersion === null ? '' : ` · v${r.weightVersion}`}`;
    const x0 = xOf(r.startSec);
    return { key: `r${r.file}`, label, x0, x1: Math.max(x0 + 2, xOf(r.endSec)) };
  });
  const syncs = joins.versionSyncs
    .filter((v) => v.completeSec !== null)
    .map((v) => ({
      key: `v${v.weightVersion}`,
      label: `v${v.weightVersion}`,
      x: xOf(v.completeSec!),
    }));
  const bandLines = placeBands(
    rollouts.map((r) => ({ x0: r.x0, x1: r.x1, labelPx: r.label.length * CHAR_PX })),
    MAX_LINES,
  );
  const versionLines = placeBands(
    syncs.map((s) => ({ x0: s.x, x1: s.x, labelPx: s.label.length * CHAR_PX + 4 })),
    1,
  );
  const lines = Math.max(1, ...bandLines.map((p) => p.line + 1));
  const height = lines * LINE_PX + LINE_PX;
  return (
    <svg className="run-axis" width={width} height={height} data-testid="run-axis">
      {rollouts.map((r, i) => {
        const { line, elided } = bandLines[i];
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
      {syncs.map((s, i) =>
        s.x < -20 || s.x > width + 20 ? null : (
          <g key={s.key} data-testid="run-version-mark" data-elided={versionLines[i].elided}>
            <title>weight version {s.label.slice(1)} synced</title>
            <line x1={s.x} x2={s.x} y1={0} y2={height} className="run-version-line" />
            {versionLines[i].elided ? null : (
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
