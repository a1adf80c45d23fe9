import type { RunJoins } from '../model/run';
import type { TrendRunExtra, TrendsResult } from '../model/trend';

/**
 * A run's trends with each rollout's train/inference mismatch, staleness, tokens per DP rank and
 * request metrics, taken from the run's own joins (as `summary RUN --json` gives them, same keys):
 * the one merge of `trends RUN` and the app's trends view. `pathOf` names a joins' file index.
 * New points: the trend cache keeps a dump's own figures only, never these, which change with
 * the run's other files.
 */
export function withRunExtra(
  result: TrendsResult,
  joins: Pick<RunJoins, 'rollouts'>,
  pathOf: (file: number) => string,
): TrendsResult {
  const byPath = new Map<string, TrendRunExtra>();
  for (const { file, figures } of joins.rollouts) {
    if (!figures) continue;
    const { mismatch, staleness, tokensPerDpRank, requestMetrics } = figures;
    byPath.set(pathOf(file), { mismatch, staleness, tokensPerDpRank, requestMetrics });
  }
  if (byPath.size === 0) return result;
  return {
    ...result,
    points: result.points.map((point) => ({ ...point, ...byPath.get(point.path) })),
  };
}
