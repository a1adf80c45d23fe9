/**
 * (ours) Figures about one rollout's wall time that slime's viewer does not give: which time
 * window is this rollout's own (partial-rollout resumes apart), what kept the rollout open,
 * which samples were stragglers, and how each GRPO group fared. Times are seconds from the
 * file's global start (slime's `global_start`), like ItemView's.
 */

import type { AttrValue } from './row';

/** A sample whose first attempt(s) ran in an earlier rollout (slime's partial rollout). */
export interface ResumedSample {
  rowId: number;
  sampleIndex: AttrValue;
  groupIndex: AttrValue;
  /** `metadata.start_rollout_id`: the rollout where the sample started */
  startRolloutId: number;
  /** its work before the resume (the earlier rollout's attempt) */
  earlierStartSec: number;
  earlierEndSec: number;
  /** where its work in this rollout starts, after the idle gap */
  resumeStartSec: number;
  /** idle seconds between the attempts (no span covers them) */
  idleSec: number;
}

/** The window a figure uses, and why: every figure names one. */
export interface TimeWindow {
  startSec: number;
  endSec: number;
  durationSec: number;
  /** 'own': this rollout's own work; 'whole': everything in the file (slime's viewer span) */
  kind: 'own' | 'whole';
  /** e.g. "this rollout's own window: 3570.0-3628.3 s (58.3 s); earlier attempts of 8 resumed samples excluded" */
  label: string;
}

/**
 * What kept the rollout open, by kind of work (the glossary defines each word). A generate
 * request's time counts as queueing, prefill and decode where the dump splits it; the rest of
 * a request that ended is 'unsplit request', of one that never ended 'unfinished request'.
 */
export const WALL_TIME_CATEGORIES = [
  'queueing',
  'prefill',
  'decode',
  'unsplit request',
  'unfinished request',
  'tool calls',
  'reward model',
  'other in sample',
  'gaps in sample',
  'idle between attempts',
  'earlier attempts',
] as const;
export type WallTimeCategory = (typeof WALL_TIME_CATEGORIES)[number];

/** The sample that ended the rollout, as the answer names it. */
export interface BoundingSample {
  rowId: number;
  sampleIndex: AttrValue;
  groupIndex: AttrValue;
  status: string | null;
  /** the row's attempt (0 = first): above 0 the sample was retried */
  attempt: number;
  /** its last generate request (the latest to start), null when it has none */
  lastRequest: { name: string; durationSec: number; unfinished: boolean } | null;
}

export interface WallTimeBreakdown {
  window: TimeWindow;
  /** seconds per category, summing to the window's duration */
  seconds: Record<WallTimeCategory, number>;
  /** the sample whose activity the own window is attributed to: the slowest of the last-finishing group */
  boundingRowId: number | null;
  boundingGroupIndex: AttrValue;
  bounding: BoundingSample | null;
}

export interface StragglerAttribution {
  window: TimeWindow;
  /** the last k samples to finish (their own work, group-wide spans apart), latest last */
  rowIds: number[];
  sampleCount: number;
  /** k / samples */
  sampleShare: number;
  /** seconds from the moment every other sample had finished to the window's end */
  tailSec: number;
  /** tailSec / window duration */
  wallShare: number;
  /** "the last 3 samples (12.5%) kept the rollout open for 21.4% of its wall time (12.5 s)" */
  sentence: string;
}

export interface GroupFigures {
  groupIndex: AttrValue;
  rowIds: number[];
  /** the group's samples' span in this rollout (own window), seconds from the file start */
  startSec: number;
  endSec: number;
  wallSec: number;
  /** the sample that finished its own work last */
  slowestRowId: number;
  /** when the slowest sample's own work ended, seconds from the file start */
  slowestEndSec: number;
  /** the median of its samples' own durations */
  medianSampleSec: number;
  rewardMean: number | null;
  /** population standard deviation (numpy's default) of the samples' rewards */
  rewardStd: number | null;
  /** every reward equal: GRPO's advantage is zero for the whole group, no learning signal */
  zeroVariance: boolean;
  resumedSamples: number;
}

export interface RolloutFigures {
  /** slime's viewer span: the file's first to last timestamp */
  whole: TimeWindow;
  /** this rollout's own window (equals whole when nothing was resumed) */
  own: TimeWindow;
  resumed: ResumedSample[];
  /** over the whole span (idle and earlier attempts included) and over the own window */
  breakdownWhole: WallTimeBreakdown;
  breakdownOwn: WallTimeBreakdown;
  stragglers: StragglerAttribution | null;
  groups: GroupFigures[];
  /** per row id: the sample's `response_length` (null when it has none) */
  responseLengths: (number | null)[];
}
