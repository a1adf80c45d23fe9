import type { TrendRunExtra, TrendsResult } from '../core/model/trend';
import type { OpenedRun } from './run-output';

/**
 * A run's trends with each rollout's train/inference mismatch, staleness, tokens per DP rank and
 * request metrics, taken from the run's own joins (as `summary RUN --json` gives them, same keys).
 * New points: the trend cache keeps a dump's own figures only, never these, which change with
 * the run's other files.
 */
export function withRunExtra(result: TrendsResult, run: OpenedRun): TrendsResult {
  const byPath = new Map<string, TrendRunExtra>();
  for (const { file, figures } of run.joins.rollouts) {
    if (!figures) continue;
    const { mismatch, staleness, tokensPerDpRank, requestMetrics } = figures;
    byPath.set(run.traces[file].path, { mismatch, staleness, tokensPerDpRank, requestMetrics });
  }
  if (byPath.size === 0) return result;
  return {
    ...result,
    points: result.points.map((point) => ({ ...point, ...byPath.get(point.path) })),
  };
}
