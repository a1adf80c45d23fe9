import type { AttrValue } from './row';
import type { RequestMetricsRecords, TrainDumpRecords } from './run-records';
import type { RunExtraCounts, RunExtraJoins } from './run-extra';

/**
 * One run: the files of one RL run (rollout dumps, SGLang's trace, the trainer's timeline) put
 * on one wall clock (epoch seconds) and joined (TRACE_MODEL section 9). What each open file
 * gives the join is a digest (core/run/run-digest.ts), built where its rows live (its worker);
 * the joins (core/run/build-run-joins.ts) are pure functions over digests.
 */

/** What a file is in a run, from its capabilities and content. */
export type RunFileRole =
  | 'samples'
  | 'server'
  | 'trainer'
  /** the trainer's view of a rollout's samples (a train-side dump) */
  | 'train'
  /** the server's per-request metrics */
  | 'request-metrics'
  /** a GPU profile (profiler traces of ranks): lanes under the samples, joined to nothing */
  | 'gpu'
  | 'other';

/** A client-side generate span of a sample (slime's `sglang_generate`). */
export interface RunClientRequest {
  rowId: number;
  /** index of the span in its row's items (the key of getSpan) */
  itemIndex: number;
  sampleIndex: AttrValue;
  attempt: number | null;
  startSec: number;
  endSec: number;
  /** end attribute `sglang_request_id`; null when the request returned none (abort, timeout) */
  rid: string | null;
}

/** One step of a server request (router, tokenizer, queue, prefill, KV transfer, decode). */
export interface RunServerStage {
  stage: string;
  /** the span's name, e.g. "prefill_forward" */
  name: string;
  /** the thread it ran on, with its rank, e.g. "Prefill Scheduler TP0" */
  lane: string | null;
  startSec: number;
  durationSec: number;
}

/** An SGLang request: its decode root span (`decode Req <rid[:8]>`, or the unified root). */
export interface RunServerRequest {
  rowId: number;
  itemIndex: number;
  rid: string;
  traceId: string | null;
  /** the whole trace (router and both servers) */
  startSec: number;
  endSec: number;
  /** a span of the trace has status ERROR (an aborted request) */
  error: boolean;
  stages: RunServerStage[];
}

export interface RunSampleDigest {
  rowId: number;
  sampleIndex: AttrValue;
  groupIndex: AttrValue;
  /** slime's `weight_versions`: one per request that returned meta */
  weightVersions: string[];
  /** the response's length in tokens, or null */
  responseLength: number | null;
}

export interface RunWeightSync {
  weightVersion: number;
  /** the trainer process, e.g. "trainer 0" */
  process: string;
  /** first weight-sync record of that version, and its weight_sync_complete (null: none yet) */
  startSec: number;
  completeSec: number | null;
}

export interface RunTrainerDigest {
  processes: string[];
  records: number;
  skippedLines: number;
  byOperation: Record<string, number>;
  syncs: RunWeightSync[];
  /** per rollout_id, the first training record's start (the trainer's step for that rollout) */
  trainingStarts: { rolloutId: number; startSec: number }[];
}

export interface RunFileDigest {
  role: RunFileRole;
  rolloutId: AttrValue;
  startSec: number | null;
  endSec: number | null;
  samples: RunSampleDigest[];
  clientRequests: RunClientRequest[];
  serverRequests: RunServerRequest[];
  trainer: RunTrainerDigest | null;
  /** a train-side dump's samples (role 'train') */
  train?: TrainDumpRecords;
  /** a request-metrics log's records (role 'request-metrics') */
  requestMetrics?: RequestMetricsRecords;
}

/** `summary --json`'s `joins`: exactly these keys. */
export interface RunJoinCounts {
  samples: number;
  samplesWithServerRequests: number;
  samplesWithoutServerRequest: number;
  /** SGLang decode request spans */
  serverRequests: number;
  serverRequestsWithoutSample: number;
  staleSamples: number;
  /** present when the run holds a train-side dump, and request metrics (docs/run-extra.md) */
  train?: RunExtraCounts['train'];
  requestMetrics?: RunExtraCounts['requestMetrics'];
}

/** `summary --json`'s `trainer`: exactly these keys. */
export interface RunTrainerSummary {
  files: number;
  records: number;
  skippedLines: number;
  byOperation: Record<string, number>;
}

/** A place in a run: a file (by its position in the run) and a row. */
export interface RunRowRef {
  file: number;
  rowId: number;
}

/** A sample's generate span joined to the server request it made. */
export interface RunLink {
  rid: string;
  client: RunRowRef & { itemIndex: number };
  server: RunRowRef & { itemIndex: number };
  /** server start minus client start, and client end minus server end (seconds) */
  leadSec: number;
  tailSec: number;
  /** the server's breakdown: time per stage and thread (router, tokenizer, queue, ...) */
  stages: { stage: string; lane: string | null; durationSec: number }[];
  /** the server request has an ERROR span */
  serverError: boolean;
}

export interface RunSampleRef extends RunRowRef {
  sampleIndex: AttrValue;
  rolloutId: AttrValue;
}

export interface RunStaleSample extends RunSampleRef {
  weightVersions: string[];
  /** the highest version among its rollout's samples */
  rolloutVersion: number;
}

export interface RunRollout {
  file: number;
  rolloutId: AttrValue;
  startSec: number;
  endSec: number;
  /** the highest weight version among its samples; null when none has one */
  weightVersion: number | null;
  /** train/inference mismatch, staleness by tokens, cache and DP figures (docs/run-extra.md) */
  figures?: RunExtraJoins['rollouts'][number];
}

/** A weight version over all trainer processes: first sync start, last completion. */
export interface RunVersionSync {
  weightVersion: number;
  startSec: number;
  completeSec: number | null;
}

export interface RunJoins {
  counts: RunJoinCounts;
  trainer: RunTrainerSummary;
  links: RunLink[];
  /** sample rows none of whose generate spans reached a server request, and why */
  samplesWithoutServerRequest: (RunSampleRef & { reason: string })[];
  /** server requests no sample asked for; `likelyClient`: a generate span without id around it */
  serverRequestsWithoutSample: (RunRowRef & {
    rid: string;
    error: boolean;
    likelyClient: (RunSampleRef & { itemIndex: number; attempt: number | null }) | null;
  })[];
  stale: RunStaleSample[];
  rollouts: RunRollout[];
  versionSyncs: RunVersionSync[];
  /** train dumps' and request metrics' joins and per-sample figures; null when the run has neither */
  extra: RunExtraJoins | null;
}
