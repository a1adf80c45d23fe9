import type { RunSampleFigures } from './run-extra';

/**
 * What a run's train dump and request-metrics log say of one GRPO group (docs/run-extra.md):
 * over its joined samples, token-weighted like the rollout's figures. Each is null when none of
 * the group's samples has the file it comes from.
 */
export interface GroupExtraFigures {
  /** the servers' decode time per output token: inference_time over completion tokens */
  decodePerToken: number | null;
  /** cached over prompt tokens of the group's requests */
  cacheHit: number | null;
  /** retractions of its requests, and its samples with any */
  retractions: number | null;
  retractedSamples: number;
  /** mean and max |log_probs - rollout_log_probs| over its loss-masked tokens, and the share
   * of them with an importance ratio outside [0.5, 2] */
  meanAbsDelta: number | null;
  maxAbsDelta: number | null;
  outsideShare: number | null;
  /** verl's token staleness: mean age in weight versions, and the share of stale tokens */
  staleMean: number | null;
  staleFraction: number | null;
}

/**
 * How a group's figure comes from its samples' parts (value, weight): Σ value / Σ weight
 * ('ratio', null when Σ weight is 0), Σ value ('sum') or the largest value ('max'); null when
 * no sample has a part.
 */
export type FigureCombine = 'ratio' | 'sum' | 'max';

/** A sample's part of a figure: its value and weight; null where its files say nothing. */
export type FigurePart = readonly [value: number, weight: number] | null;

/**
 * Each figure a group shows from its samples, as one part per sample and how parts combine:
 * the groups view's cells and its sort by them (the worker combines the parts the renderer
 * sends, groupRowFigure) come from this one table, so a column sorts by what it shows.
 */
export const GROUP_EXTRA_FIGURES = {
  decodePerToken: { combine: 'ratio', part: decodePart },
  cacheHit: {
    combine: 'ratio',
    part: (s) => {
      let prompt = 0;
      let cached = 0;
      for (const r of s.requests) {
        prompt += r.promptTokens ?? 0;
        cached += r.cachedTokens ?? 0;
      }
      return [cached, prompt];
    },
  },
  retractions: {
    combine: 'sum',
    // the sample's own sum: null when none of its records tells its retractions
    part: (s) => (s.retractions === null ? null : [s.retractions, 1]),
  },
  meanAbsDelta: {
    combine: 'ratio',
    part: (s) => weighted(s.train?.mismatch, (m) => m.meanAbsDelta),
  },
  maxAbsDelta: {
    combine: 'max',
    part: (s) => (s.train?.mismatch ? [s.train.mismatch.maxAbsDelta, 1] : null),
  },
  outsideShare: {
    combine: 'ratio',
    part: (s) => weighted(s.train?.mismatch, (m) => m.outsideShare),
  },
  staleMean: { combine: 'ratio', part: (s) => weighted(s.staleness, (a) => a.mean) },
  staleFraction: {
    combine: 'ratio',
    part: (s) => (s.staleness ? [s.staleness.staleTokens, s.staleness.tokens] : null),
  },
} satisfies Record<string, { combine: FigureCombine; part: (s: RunSampleFigures) => FigurePart }>;

export type GroupExtraKey = keyof typeof GROUP_EXTRA_FIGURES;

/** A figure of some samples, by `combine`, from their parts. */
export function combineParts(combine: FigureCombine, parts: Iterable<FigurePart>): number | null {
  let any = false;
  let value = combine === 'max' ? -Infinity : 0;
  let weight = 0;
  for (const part of parts) {
    if (part === null) continue;
    any = true;
    if (combine === 'max') value = Math.max(value, part[0]);
    else value += part[0];
    weight += part[1];
  }
  if (!any) return null;
  if (combine !== 'ratio') return value;
  return weight > 0 ? value / weight : null;
}

/** The group's figures from its samples' (by row); null when no sample of it is joined. */
export function groupExtraFigures(
  rowIds: readonly number[],
  figuresOf: (rowId: number) => RunSampleFigures | undefined,
): GroupExtraFigures | null {
  const samples = rowIds.map(figuresOf).filter((s): s is RunSampleFigures => s !== undefined);
  if (samples.length === 0) return null;
  const figure = (key: GroupExtraKey) => {
    const { combine, part } = GROUP_EXTRA_FIGURES[key];
    return combineParts(combine, samples.map(part));
  };
  return {
    decodePerToken: figure('decodePerToken'),
    cacheHit: figure('cacheHit'),
    retractions: figure('retractions'),
    retractedSamples: samples.filter((s) => (s.retractions ?? 0) > 0).length,
    meanAbsDelta: figure('meanAbsDelta'),
    maxAbsDelta: figure('maxAbsDelta'),
    outsideShare: figure('outsideShare'),
    staleMean: figure('staleMean'),
    staleFraction: figure('staleFraction'),
  };
}

/**
 * The servers' decode time per output token over samples' joined requests: their
 * inference_time (end minus first forward) summed over their completion tokens; null without.
 */
export function decodeSecPerToken(samples: readonly RunSampleFigures[]): number | null {
  return combineParts('ratio', samples.map(decodePart));
}

function decodePart(s: RunSampleFigures): FigurePart {
  let seconds = 0;
  let tokens = 0;
  for (const r of s.requests) {
    if (r.inferenceSec === null || r.completionTokens === null || r.completionTokens <= 0) continue;
    seconds += r.inferenceSec;
    tokens += r.completionTokens;
  }
  return tokens > 0 ? [seconds, tokens] : null;
}

/** a per-token mean as a part: the mean times the tokens, weighted by them */
function weighted<T extends { tokens: number }>(
  of: T | null | undefined,
  mean: (of: T) => number,
): FigurePart {
  return of ? [mean(of) * of.tokens, of.tokens] : null;
}

/** The parts of figure `key` of every sample that has one: what a groups query sorts by. */
export function rowFigureParts(
  key: GroupExtraKey,
  samples: Iterable<RunSampleFigures>,
): { combine: FigureCombine; rowIds: number[]; values: number[]; weights: number[] } {
  const { combine, part } = GROUP_EXTRA_FIGURES[key];
  const rowIds: number[] = [];
  const values: number[] = [];
  const weights: number[] = [];
  for (const s of samples) {
    const p = part(s);
    if (p === null || !Number.isFinite(p[0]) || !Number.isFinite(p[1])) continue;
    rowIds.push(s.rowId);
    values.push(p[0]);
    weights.push(p[1]);
  }
  return { combine, rowIds, values, weights };
}
