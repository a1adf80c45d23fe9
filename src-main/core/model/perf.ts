/** The perf view of one file (TRACE_MODEL section 5): built by rows/ and open/, shown by the UI. */

import type { RolloutFigures } from './rollout-figures';

/** perf/... keys, slime's and ours */
export type PerfSummary = Record<string, number>;

/** Values as typed arrays: 100k rows' series cross threads and HTTP as bytes, not JSON numbers. */
export interface Distribution {
  name: string;
  valuesSec: Float64Array;
}

/** per-request values for a histogram, with the row each came from */
export interface PerfSeries {
  key: string;
  unit: 's' | 'tok/s' | 'MB' | 'GB/s' | '';
  values: Float64Array;
  rowIds: Int32Array;
  /**
   * the names of the spans the values were read from, distinct, in first-seen order (slime's
   * request figures: sglang_generate; a PD phase: the [P]/[D] lane span holding it), so a
   * histogram bin can highlight them in the timeline
   */
  spanNames: string[];
}

export interface PerfView {
  perf: PerfSummary;
  /** per-request values for histograms: e2e latency, queue time, decode throughput, PD phases */
  series: PerfSeries[];
  /** samples running over time: step function of (t, running) */
  running: { tSec: number; running: number }[];
  durations: Distribution[];
  /** (ours) own window, resumed samples, what kept the rollout open, stragglers, groups */
  rollout: RolloutFigures;
}
