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
  /** samples running over time (made when read: see build-perf-view.ts) */
  running: RunningCurve;
  durations: Distribution[];
  /** (ours) own window, resumed samples, what kept the rollout open, stragglers, groups */
  rollout: RolloutFigures;
}

/**
 * What crosses the wire for the perf view (core/open/perf-digest.ts): per distribution its
 * count, stats and histogram bins, the running curve reduced to chart resolution; never every
 * value. 100k samples' full PerfView is 33 MB of JSON; its digest is a few hundred kB.
 */
export interface PerfDigest {
  perf: PerfSummary;
  series: PerfSeriesDigest[];
  running: RunningDigest;
  /** most frequent names first, like PerfView's durations */
  durations: DurationDigest[];
  /** RolloutFigures without the per-group and per-row lists (getPerfGroups answers the groups) */
  rollout: RolloutDigest;
}

export type RolloutDigest = Omit<RolloutFigures, 'groups' | 'responseLengths'> & {
  groupCount: number;
};

/** Count, mean, median, p90 and extremes of a distribution's finite values. */
export interface ValueStats {
  count: number;
  min: number;
  max: number;
  mean: number;
  /** numpy's median (mean of the two middle values), as slime computes it */
  median: number;
  /** linear interpolation between closest ranks, numpy's default */
  p90: number;
  total: number;
}

/** One histogram bin: values in [x0, x1) (the last bin also takes x1). */
export interface ValueBin {
  x0: number;
  x1: number;
  count: number;
  /** distinct rows among the bin's values (series only; 0 for durations) */
  samples: number;
}

/** A distribution as the perf view draws it. */
export interface BinnedValues {
  /** every value, finite or not (what the view calls n of the series) */
  valueCount: number;
  /** null when no value is finite */
  stats: ValueStats | null;
  bins: ValueBin[];
  /** values that were not finite numbers and were left out */
  skipped: number;
  maxCount: number;
}

export interface PerfSeriesDigest extends BinnedValues {
  key: string;
  unit: PerfSeries['unit'];
  spanNames: string[];
}

export interface DurationDigest extends BinnedValues {
  name: string;
}

/** Peak, end and long tail of the running-samples curve, from every step. */
export interface RunningSummary {
  peak: number;
  peakAtSec: number;
  endSec: number;
  /**
   * Where the long tail starts: the last time the running count dropped below half its peak.
   * From there to the end, at most `tailMax` samples run (the stragglers).
   */
  tailStartSec: number | null;
  tailMax: number;
  /** the tail's share of the rollout's wall time */
  tailShare: number;
}

/**
 * The running curve as typed arrays, reduced to at most a few points per chart column (each
 * column keeps its first, lowest, highest and last step, so no peak or dip is lost); the
 * summary is computed over every step before reducing.
 */
export interface RunningDigest {
  tSec: Float64Array;
  running: Int32Array;
  /** steps in the full curve (2 per row at most) */
  steps: number;
  summary: RunningSummary;
}

/** A distribution of a file's perf view by name: a span name's durations or a series. */
export interface PerfDistributionId {
  kind: 'duration' | 'series';
  name: string;
}

/** Two files' values of one distribution over the same equal-width bins (compare's overlay). */
export interface SharedBins {
  edges: number[];
  a: number[];
  b: number[];
  /** value counts and means of all values (as the overlay's legend shows them) */
  countA: number;
  countB: number;
  meanA: number;
  meanB: number;
}

/**
 * Samples running over time as a step function: from tSec[i] on, running[i] samples run
 * (seconds from the rollout's start, in time order). Typed arrays: 100k rows make 200k steps,
 * 13 MB of heap as objects.
 */
export interface RunningCurve {
  tSec: Float64Array;
  running: Int32Array;
}
