import type { AttrValue } from './row';
import type { RequestMetricsRecord, TokenMismatch } from './run-records';

/**
 * A run's joins of train-side dumps and request-metrics logs to its rollout samples, and the
 * figures they give per sample and per rollout (docs/run-extra.md names every key).
 */

/** `summary RUN --json`'s `joins.train` and `joins.requestMetrics`: exactly these keys. */
export interface RunExtraCounts {
  train: { samples: number; joinedSamples: number; unjoinedSamples: number };
  requestMetrics: {
    records: number;
    recordsWithSample: number;
    recordsWithoutSample: number;
    samplesWithoutRecord: number;
    skippedLines: number;
  };
}

/** A rollout sample: its file in the run and row. */
export interface RunExtraSampleRef {
  file: number;
  rowId: number;
  sampleIndex: AttrValue;
  rolloutId: AttrValue;
}

/** One request-metrics record joined to a sample's generate call: the record's own fields. */
export interface RunSampleRequestFigures extends Pick<
  RequestMetricsRecord,
  | 'rowId'
  | 'rid'
  | 'finishType'
  | 'promptTokens'
  | 'completionTokens'
  | 'cachedTokens'
  | 'cachedDevice'
  | 'cachedHost'
  | 'cachedStorage'
  | 'retractions'
  | 'dpRank'
  | 'weightVersion'
  | 'queueSec'
  | 'inferenceSec'
> {
  /** the metrics file in the run (the record's row there is rowId) */
  file: number;
  /** slime's generate span end minus the server's request_finished_ts */
  clientOverheadSec: number | null;
}

/** What the train dumps and request metrics say of one rollout sample. */
export interface RunSampleFigures extends RunExtraSampleRef {
  /** the train dump's sample: its file in the run and index there (lazy values) */
  train: {
    file: number;
    index: number;
    dpRank: number | null;
    mismatch: TokenMismatch | null;
    meanEntropy: number | null;
    meanKl: number | null;
  } | null;
  requests: RunSampleRequestFigures[];
  /** over the sample's joined records: cached / prompt tokens (null without prompt tokens) */
  cacheHit: number | null;
  retractions: number | null;
  dpRank: number | null;
  queueSec: number | null;
  clientOverheadSec: number | null;
  /** tokens aged by the trainer's version minus their call's weight_version (verl's age) */
  staleness: { tokens: number; mean: number; max: number; min: number; staleTokens: number } | null;
}

/** verl's behavior-age figures for one rollout's tokens (verl/utils/metric/behavior_age.py). */
export interface TokenStaleness {
  /** the trainer's weight version at the rollout's training step */
  trainerVersion: number;
  tokens: number;
  mean: number;
  max: number;
  min: number;
  /** share of tokens whose age is above 0 */
  staleFraction: number;
}

/** One rollout's figures (RunRollout.figures). */
export interface RunRolloutFigures {
  file: number;
  rolloutId: AttrValue;
  /** token-weighted over the rollout's joined train samples; null without a train dump */
  mismatch:
    (TokenMismatch & { samples: number; meanEntropy: number | null; meanKl: number | null }) | null;
  staleness: (TokenStaleness & { staleSamples: number }) | null;
  /** the trainer's load balance: per DP rank, samples and loss-masked tokens */
  tokensPerDpRank: { dpRank: number; samples: number; tokens: number; totalLength: number }[];
  /** over the rollout's joined request-metrics records; null without any */
  requestMetrics: {
    records: number;
    promptTokens: number;
    cachedTokens: number;
    cachedDevice: number;
    cachedHost: number;
    cachedStorage: number;
    /** cached / prompt tokens over the records */
    cacheHitRate: number | null;
    /** over the records that tell their retractions (retractionRecords); null when none does */
    retractions: number | null;
    retractedRecords: number | null;
    retractionRecords: number;
    meanQueueSec: number | null;
    meanClientOverheadSec: number | null;
  } | null;
}

export interface RunExtraJoins {
  counts: RunExtraCounts;
  /** train samples without a rollout sample, and rollout samples of a dumped rollout without a train sample */
  trainWithoutSample: {
    file: number;
    index: number;
    rolloutId: number | null;
    rolloutPosition: number | null;
    reason: string;
  }[];
  samplesWithoutTrain: RunExtraSampleRef[];
  recordsWithoutSample: { file: number; rowId: number; rid: string; finishType: string | null }[];
  samplesWithoutRecord: RunExtraSampleRef[];
  samples: RunSampleFigures[];
  rollouts: RunRolloutFigures[];
}
