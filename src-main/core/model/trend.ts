import type { RunRolloutFigures } from './run-extra';

/** One rollout of a run, as the trends view plots it (issue 21). */
export interface TrendPoint {
  path: string;
  name: string;
  /** rollouts and evaluations are two series (eval dumps: `eval_N.pt`, `rollout_eval_N.pt`) */
  series: 'rollout' | 'eval';
  /** the dump's own `rollout_id`, else the number in its name */
  rolloutId: number | null;
  /** slime's perf/... keys exactly as `trace-explorer perf` prints them, then ours */
  figures: Record<string, number>;
}

/** A run's figures of one rollout from its train dumps and request metrics (docs/run-extra.md). */
export type TrendRunExtra = Pick<
  RunRolloutFigures,
  'mismatch' | 'staleness' | 'tokensPerDpRank' | 'requestMetrics'
>;

/** The trend points of a run's folder, with what could not be read and what is not a dump. */
export interface TrendsResult {
  /** one per readable dump: rollouts by id, then evaluations by id */
  points: (TrendPoint & Partial<TrendRunExtra>)[];
  /** dumps that cannot be read now (still being written, cut off, broken), with why */
  incomplete: { path: string; code: string; message: string }[];
  /** files that are not rollout dumps, with why */
  skipped: { path: string; reason: string }[];
  /** how many points came from the cache */
  cached: number;
  /** each figure's unit (s, tok/s, GB/s, MB, tokens; '' for counts) */
  units: Record<string, string>;
}

/** How reading one dump of a trends folder goes. */
export interface TrendFileProgress {
  path: string;
  state: 'reading' | 'cached' | 'done' | 'incomplete';
  bytesRead: number;
  bytesTotal: number;
}
