import type { RunJoins } from '../../src-main/core/api/trace-api';
import { formatSec } from './run-model';

export interface TimeScale {
  startSec: number;
  endSec: number;
  /** plot width in CSS pixels (after the label column) */
  width: number;
}

export const xOf = (scale: TimeScale, sec: number) =>
  ((sec - scale.startSec) / (scale.endSec - scale.startSec)) * scale.width;

/**
 * The run's time axis: seconds from the run's start, each rollout's span as a band, and each
 * weight version marked where its sync completed (the version in force from there on).
 */
export function RunAxis({ scale, joins }: { scale: TimeScale; joins: RunJoins }) {
  const span = scale.endSec - scale.startSec;
  const step = niceStep(span / Math.max(1, scale.width / 90));
  const ticks: number[] = [];
  for (let t = 0; t <= span + 1e-9; t += step) ticks.push(t);
  return (
    <svg className="run-axis" width={scale.width} height={46} data-testid="run-axis">
      {joins.rollouts.map((r) => {
        const x = xOf(scale, r.startSec);
        const w = Math.max(2, xOf(scale, r.endSec) - x);
        return (
          <g key={r.file} data-testid="run-rollout-band">
            <rect x={x} y={2} width={w} height={14} className="run-rollout-band" rx={2} />
            <text x={x + 3} y={13} className="run-axis-label">
              rollout {String(r.rolloutId)}
              {r.weightVersion === null ? '' : ` · v${r.weightVersion}`}
            </text>
          </g>
        );
      })}
      {joins.versionSyncs.map((v) =>
        v.completeSec === null ? null : (
          <g key={v.weightVersion} data-testid="run-version-mark">
            <line
              x1={xOf(scale, v.completeSec)}
              x2={xOf(scale, v.completeSec)}
              y1={0}
              y2={46}
              className="run-version-line"
            />
            <text x={xOf(scale, v.completeSec) + 2} y={28} className="run-version-label">
              v{v.weightVersion}
            </text>
          </g>
        ),
      )}
      {ticks.map((t) => (
        <g key={t}>
          <line
            x1={xOf(scale, scale.startSec + t)}
            x2={xOf(scale, scale.startSec + t)}
            y1={36}
            y2={46}
            className="run-tick"
          />
          <text x={xOf(scale, scale.startSec + t) + 2} y={44} className="run-axis-label">
            {formatSec(t)}
          </text>
        </g>
      ))}
    </svg>
  );
}

function niceStep(raw: number): number {
  const power = 10 ** Math.floor(Math.log10(raw));
  for (const m of [1, 2, 5, 10]) if (m * power >= raw) return m * power;
  return 10 * power;
}
