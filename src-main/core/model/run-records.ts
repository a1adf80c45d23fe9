/**
 * What a file gives a run beyond its rows: records that other files' samples join to
 * (docs/run-extra.md). A format fills them in its own words-free shape; the run's joins
 * (core/run) read only these, never the format's folder.
 */
export interface RunRecords {
  /** the trainer's view of one rollout's samples (slime's train-side dump) */
  train?: TrainDumpRecords;
  /** the inference server's own account of each finished request (SGLang's metrics log) */
  requestMetrics?: RequestMetricsRecords;
}

/** Train/inference log-prob mismatch of one sample, over its loss-masked tokens. */
export interface TokenMismatch {
  /** loss-masked tokens the figures are over */
  tokens: number;
  /** mean and max of |log_probs - rollout_log_probs| (the trainer's minus the server's) */
  meanAbsDelta: number;
  maxAbsDelta: number;
  /** mean importance ratio exp(log_probs - rollout_log_probs) */
  meanRatio: number;
  /** share of tokens whose ratio is outside [0.5, 2] (what TIS/MIS corrections clip) */
  outsideShare: number;
}

export interface TrainSampleRecord {
  /** its index in the train dump's samples list (the train file's row-less sample id) */
  index: number;
  rolloutId: number | null;
  /** its index in the rollout dump: the join key with rolloutId */
  rolloutPosition: number | null;
  sampleIndex: number | null;
  dpRank: number | null;
  responseLength: number | null;
  totalLength: number | null;
  /** null when the sample has no log_probs or rollout_log_probs */
  mismatch: TokenMismatch | null;
  /** means over the loss-masked tokens; null without the tensor */
  meanEntropy: number | null;
  meanKl: number | null;
}

/** One data-parallel rank's share of a rollout, as the trainer scheduled it (dp_shards). */
export interface TrainDpShard {
  dpRank: number;
  samples: number;
  microBatches: number;
}

export interface TrainDumpRecords {
  rolloutId: number | null;
  samples: TrainSampleRecord[];
  dpShards: TrainDpShard[];
}

/** One finished request as the server logged it; times in epoch seconds. */
export interface RequestMetricsRecord {
  /** the record's row in its file (one row per record) */
  rowId: number;
  rid: string;
  /** 'stop', 'length', 'abort', ... */
  finishType: string | null;
  promptTokens: number | null;
  completionTokens: number | null;
  cachedTokens: number | null;
  /** cached tokens served from GPU memory and from host memory (HiCache), when told */
  cachedDevice: number | null;
  cachedHost: number | null;
  /** and from HiCache's storage tier (L3), told only when the server has one */
  cachedStorage: number | null;
  /** null when the log has no retraction field (sglang before it): unknown, not 0 */
  retractions: number | null;
  dpRank: number | null;
  weightVersion: string | null;
  queueSec: number | null;
  e2eSec: number | null;
  /** the server's decode time: request end minus its first forward (SGLang's inference_time) */
  inferenceSec: number | null;
  receivedSec: number | null;
  finishedSec: number | null;
}

export interface RequestMetricsRecords {
  records: RequestMetricsRecord[];
  /** lines skipped (not JSON, cut off, no id): counted and listed in the file's summary */
  skippedLines: number;
}
