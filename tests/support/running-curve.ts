import type { RunningCurve } from '../../src-main/core/model/perf';

/** a running curve from its steps, written as points */
export function curveOf(points: { tSec: number; running: number }[]): RunningCurve {
  return {
    tSec: Float64Array.from(points, (p) => p.tSec),
    running: Int32Array.from(points, (p) => p.running),
  };
}

/** a running curve's steps as points, to compare with steps written by hand */
export function pointsOf(curve: RunningCurve): { tSec: number; running: number }[] {
  return Array.from(curve.tSec, (tSec, i) => ({ tSec, running: curve.running[i] }));
}
