import type { RunSampleFigures } from './run-extra';

/**
 * What a run's train dump and request-metrics log say of one GRPO group (docs/run-extra.md):
 * over its joined samples, token-weighted like the rollout's figures. Each is null when none of
 * the group's samples has the file it comes from.
 */
export interface GroupExtraFigures {
  /** cached over prompt tokens of the group's requests */
  cacheHit: number | null;
  /** retractions of its requests, and its samples with any */
  retractions: number | null;
  retractedSamples: number;
  /** mean |log_probs - rollout_log_probs| over its loss-masked tokens, and the share of them
   * with an importance ratio outside [0.5, 2] */
  meanAbsDelta: number | null;
  outsideShare: number | null;
  /** verl's token staleness: mean age in weight versions, and the share of stale tokens */
  staleMean: number | null;
  staleFraction: number | null;
}

/** The group's figures from its samples' (by row); null when no sample of it is joined. */
export function groupExtraFigures(
  rowIds: readonly number[],
  figuresOf: (rowId: number) => RunSampleFigures | undefined,
): GroupExtraFigures | null {
  const samples = rowIds.map(figuresOf).filter((s): s is RunSampleFigures => s !== undefined);
  if (samples.length === 0) return null;
  const requests = samples.flatMap((s) => s.requests);
  let prompt = 0;
  let cached = 0;
  for (const r of requests) {
    prompt += r.promptTokens ?? 0;
    cached += r.cachedTokens ?? 0;
  }
  let tokens = 0;
  let delta = 0;
  let outside = 0;
  let ageTokens = 0;
  let age = 0;
  let stale = 0;
  for (const s of samples) {
    const m = s.train?.mismatch;
    if (m) {
      tokens += m.tokens;
      delta += m.meanAbsDelta * m.tokens;
      outside += m.outsideShare * m.tokens;
    }
    if (s.staleness) {
      ageTokens += s.staleness.tokens;
      age += s.staleness.mean * s.staleness.tokens;
      stale += s.staleness.staleTokens;
    }
  }
  const withRequests = samples.filter((s) => s.requests.length > 0);
  return {
    cacheHit: prompt > 0 ? cached / prompt : null,
    retractions: withRequests.length > 0 ? requests.reduce((n, r) => n + r.retractions, 0) : null,
    retractedSamples: samples.filter((s) => (s.retractions ?? 0) > 0).length,
    meanAbsDelta: tokens > 0 ? delta / tokens : null,
    outsideShare: tokens > 0 ? outside / tokens : null,
    staleMean: ageTokens > 0 ? age / ageTokens : null,
    staleFraction: ageTokens > 0 ? stale / ageTokens : null,
  };
}
