import type { RunFileDigest } from '../model/run';
import type { RunRolloutFigures, RunSampleFigures } from '../model/run-extra';
import type { TrainDpShard, TrainSampleRecord } from '../model/run-records';

/**
 * One rollout's figures over its samples (docs/run-extra.md): the train/inference mismatch
 * weighted by each sample's loss-masked tokens, verl's token staleness beside today's
 * stale-sample count, the trainer's tokens per DP rank, and the server's cache and retractions.
 */
export function rolloutFigures(
  file: number,
  digest: RunFileDigest,
  samples: RunSampleFigures[],
  train: TrainSampleRecord[],
  trainerVersion: number | null,
  dpShards: TrainDpShard[],
): RunRolloutFigures {
  return {
    file,
    rolloutId: digest.rolloutId,
    mismatch: mismatchOf(train),
    staleness: stalenessOf(samples, trainerVersion),
    tokensPerDpRank: tokensPerDpRank(train, dpShards),
    requestMetrics: requestMetricsOf(samples),
  };
}

function mismatchOf(train: TrainSampleRecord[]): RunRolloutFigures['mismatch'] {
  let tokens = 0;
  let samples = 0;
  let abs = 0;
  let max = 0;
  let ratio = 0;
  let outside = 0;
  let entropy = { sum: 0, tokens: 0 };
  let kl = { sum: 0, tokens: 0 };
  for (const record of train) {
    const m = record.mismatch;
    if (m === null) continue;
    samples++;
    tokens += m.tokens;
    abs += m.meanAbsDelta * m.tokens;
    max = Math.max(max, m.maxAbsDelta);
    ratio += m.meanRatio * m.tokens;
    outside += m.outsideShare * m.tokens;
    if (record.meanEntropy !== null)
      entropy = {
        sum: entropy.sum + record.meanEntropy * m.tokens,
        tokens: entropy.tokens + m.tokens,
      };
    if (record.meanKl !== null)
      kl = { sum: kl.sum + record.meanKl * m.tokens, tokens: kl.tokens + m.tokens };
  }
  if (tokens === 0) return null;
  return {
    samples,
    tokens,
    meanAbsDelta: abs / tokens,
    maxAbsDelta: max,
    meanRatio: ratio / tokens,
    outsideShare: outside / tokens,
    meanEntropy: entropy.tokens === 0 ? null : entropy.sum / entropy.tokens,
    meanKl: kl.tokens === 0 ? null : kl.sum / kl.tokens,
  };
}

function stalenessOf(
  samples: RunSampleFigures[],
  trainerVersion: number | null,
): RunRolloutFigures['staleness'] {
  const aged = samples.map((s) => s.staleness).filter((s) => s !== null);
  if (trainerVersion === null || aged.length === 0) return null;
  const tokens = aged.reduce((n, s) => n + s.tokens, 0);
  const stale = aged.reduce((n, s) => n + s.staleTokens, 0);
  return {
    trainerVersion,
    tokens,
    mean: aged.reduce((n, s) => n + s.mean * s.tokens, 0) / tokens,
    max: Math.max(...aged.map((s) => s.max)),
    min: Math.min(...aged.map((s) => s.min)),
    staleFraction: stale / tokens,
    staleSamples: aged.filter((s) => s.max > 0).length,
  };
}

function tokensPerDpRank(
  train: TrainSampleRecord[],
  dpShards: TrainDpShard[],
): RunRolloutFigures['tokensPerDpRank'] {
  const ranks = new Map<
    number,
    { dpRank: number; samples: number; tokens: number; totalLength: number }
  >();
  for (const shard of dpShards)
    ranks.set(shard.dpRank, { dpRank: shard.dpRank, samples: 0, tokens: 0, totalLength: 0 });
  for (const record of train) {
    if (record.dpRank === null) continue;
    const rank = ranks.get(record.dpRank) ?? {
      dpRank: record.dpRank,
      samples: 0,
      tokens: 0,
      totalLength: 0,
    };
    rank.samples++;
    rank.tokens += record.mismatch?.tokens ?? 0;
    rank.totalLength += record.totalLength ?? 0;
    ranks.set(record.dpRank, rank);
  }
  return [...ranks.values()].sort((a, b) => a.dpRank - b.dpRank);
}

function requestMetricsOf(samples: RunSampleFigures[]): RunRolloutFigures['requestMetrics'] {
  const records = samples.flatMap((s) => s.requests);
  if (records.length === 0) return null;
  const sum = (pick: (r: (typeof records)[number]) => number | null) =>
    records.reduce((n, r) => n + (pick(r) ?? 0), 0);
  const mean = (pick: (r: (typeof records)[number]) => number | null) => {
    const values = records.map(pick).filter((v): v is number => v !== null);
    return values.length === 0 ? null : values.reduce((a, b) => a + b, 0) / values.length;
  };
  const promptTokens = sum((r) => r.promptTokens);
  const cachedTokens = sum((r) => r.cachedTokens);
  return {
    records: records.length,
    promptTokens,
    cachedTokens,
    cachedDevice: sum((r) => r.cachedDevice),
    cachedHost: sum((r) => r.cachedHost),
    cachedStorage: sum((r) => r.cachedStorage),
    cacheHitRate: promptTokens === 0 ? null : cachedTokens / promptTokens,
    ...retractionsOf(records),
    meanQueueSec: mean((r) => r.queueSec),
    meanClientOverheadSec: mean((r) => r.clientOverheadSec),
  };
}

/** Retractions over the records that tell them: an older sglang's record is unknown, not 0. */
function retractionsOf(
  records: { retractions: number | null }[],
): Pick<
  NonNullable<RunRolloutFigures['requestMetrics']>,
  'retractions' | 'retractedRecords' | 'retractionRecords'
> {
  const known = records.flatMap((r) => (r.retractions === null ? [] : [r.retractions]));
  if (known.length === 0)
    return { retractions: null, retractedRecords: null, retractionRecords: 0 };
  return {
    retractions: known.reduce((a, b) => a + b, 0),
    retractedRecords: known.filter((n) => n > 0).length,
    retractionRecords: known.length,
  };
}
