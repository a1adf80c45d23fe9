import type { FormatCapabilities } from '../model/file-format';
import type { TraceSamples } from '../model/sample-facts';
import type { RunRecords } from '../model/run-records';
import {
  sourceText,
  type AttrValue,
  type Attrs,
  type PackedRow,
  type Row,
  type SpanItem,
} from '../model/row';
import { unpackRow } from '../rows/packed-items';
import type { TraceFigures } from '../open/opened-trace';
import type {
  RunFileDigest,
  RunSampleDigest,
  RunServerRequest,
  RunServerStage,
  RunTrainerDigest,
  RunWeightSync,
} from '../model/run';

/** What a run needs of one open file; built where the file's rows live (its worker). */
export interface RunDigestInput {
  summary: {
    capabilities: FormatCapabilities;
    rolloutId: AttrValue;
    skippedLines: { count: number };
    globalStartSec: number | null;
    globalEndSec: number | null;
  };
  rows: PackedRow[];
  /** what a run reads of each sample: its weight versions */
  samples: Pick<TraceSamples, 'facts'>;
  /** train samples or request metrics other files' samples join to */
  runRecords?: RunRecords;
}

/** slime's client span around one SGLang call (TRACE_MODEL section 9). */
const CLIENT_SPAN = 'sglang_generate';
const CLIENT_RID = 'sglang_request_id';
/** SGLang's request root that answers the client: `decode Req <rid[:8]>`, or unified ` Req <rid[:8]>` */
const SERVER_ROOT = /^(decode | )Req \S+$/;
/** the record that ends a weight sync on a trainer process */
const SYNC_COMPLETE = 'weight_sync_complete';
/** trainer operations that are not weight syncs: their weight_version is the one trained */
const TRAINING = new Set(['train_forward_backward', 'grad_sync', 'optimizer_step']);

/** The stage a server span is, by SGLang's span names (TRACE_MODEL section 6). */
const STAGES: [RegExp, string][] = [
  [/^http_request$/, 'router'],
  [/^tokenize$/, 'tokenizer'],
  [/_(waiting|bootstrap|prepare)$|bootstrap_queue/, 'queue'],
  [/^prefill_forward$/, 'prefill'],
  [/transfer|mooncake_worker_send$/, 'KV transfer'],
  [/^decode_forward$/, 'decode'],
];

/**
 * The digest of a file read without its store (openTraceFigures: a trends point's read), the
 * same as runDigest of the file opened whole: its extent is its rows', as the store's is.
 */
export function runDigestOfFigures(trace: TraceFigures): RunFileDigest {
  let start = Infinity;
  let end = -Infinity;
  for (const row of trace.rows) {
    if (row.start < start) start = row.start;
    if (row.end > end) end = row.end;
  }
  const some = trace.rows.length > 0;
  return runDigest({
    summary: {
      capabilities: trace.capabilities,
      rolloutId: trace.rolloutId,
      skippedLines: trace.skippedLines,
      globalStartSec: some ? start : null,
      globalEndSec: some ? end : null,
    },
    rows: trace.rows,
    samples: trace.samples,
    ...(trace.runRecords ? { runRecords: trace.runRecords } : {}),
  });
}

export function runDigest(trace: RunDigestInput): RunFileDigest {
  const { capabilities } = trace.summary;
  const digest: RunFileDigest = {
    role: 'other',
    rolloutId: trace.summary.rolloutId,
    startSec: trace.summary.globalStartSec,
    endSec: trace.summary.globalEndSec,
    samples: [],
    clientRequests: [],
    serverRequests: [],
    trainer: null,
  };
  if (trace.runRecords?.train) {
    digest.role = 'train';
    digest.train = trace.runRecords.train;
  } else if (trace.runRecords?.requestMetrics) {
    digest.role = 'request-metrics';
    digest.requestMetrics = trace.runRecords.requestMetrics;
  } else if (capabilities.gpuProfile) {
    digest.role = 'gpu';
  } else if (capabilities.trainerTimeline) {
    digest.role = 'trainer';
    digest.trainer = trainerDigest(trace.rows, trace.summary.skippedLines.count);
  } else if (capabilities.samples) {
    digest.role = 'samples';
    for (const packed of trace.rows) {
      const row = unpackRow(packed);
      const facts = trace.samples.facts[row.row_id];
      digest.samples.push(sampleDigest(row, facts?.weightVersions ?? [], facts?.responseLength));
      row.items.forEach((item, itemIndex) => {
        if (item.type !== 'span' || item.name !== CLIENT_SPAN) return;
        const rid = item.attrs.end_attrs[CLIENT_RID];
        digest.clientRequests.push({
          rowId: row.row_id,
          itemIndex,
          sampleIndex: row.sample_index,
          attempt: item.attempt,
          startSec: item.start_ts,
          endSec: item.display_end_ts,
          rid: typeof rid === 'string' && rid !== '' ? rid : null,
        });
      });
    }
  } else {
    for (const row of trace.rows) digest.serverRequests.push(...serverRequests(unpackRow(row)));
    if (digest.serverRequests.length > 0) digest.role = 'server';
  }
  return digest;
}

function sampleDigest(
  row: Row,
  weightVersions: readonly string[],
  responseLength: number | null | undefined,
): RunSampleDigest {
  return {
    rowId: row.row_id,
    sampleIndex: row.sample_index,
    groupIndex: row.group_index,
    weightVersions: [...weightVersions],
    responseLength: responseLength ?? null,
  };
}

function serverRequests(row: Row): RunServerRequest[] {
  const out: RunServerRequest[] = [];
  row.items.forEach((item, itemIndex) => {
    if (item.type !== 'span' || !SERVER_ROOT.test(item.name)) return;
    const rid = attr(item, 'rid');
    if (typeof rid !== 'string' || rid === '') return;
    out.push({
      rowId: row.row_id,
      itemIndex,
      rid,
      traceId: row.trace_id,
      startSec: row.start,
      endSec: row.end,
      error: row.items.some((i) => i.error === true),
      stages: stagesOf(row),
    });
  });
  return out;
}

function attr(span: SpanItem, key: string): AttrValue | undefined {
  return span.attrs.start_attrs[key] ?? span.attrs.end_attrs[key];
}

function stagesOf(row: Row): RunServerStage[] {
  const stages: RunServerStage[] = [];
  for (const item of row.items) {
    if (item.type !== 'span') continue;
    const stage = STAGES.find(([pattern]) => pattern.test(item.name));
    if (!stage) continue;
    stages.push({
      stage: stage[1],
      name: item.name,
      lane: item.lane_label ?? item.service ?? null,
      startSec: item.start_ts,
      durationSec: item.display_end_ts - item.start_ts,
    });
  }
  return stages.sort((a, b) => a.startSec - b.startSec);
}

function trainerDigest(rows: PackedRow[], skippedLines: number): RunTrainerDigest {
  const byOperation: Record<string, number> = {};
  const syncs: RunWeightSync[] = [];
  const trainingStarts = new Map<number, number>();
  let records = 0;
  for (const packed of rows) {
    const row = unpackRow(packed);
    const process = sourceText(row.source) ?? `rank ${String(row.sample_index)}`;
    const byVersion = new Map<number, RunWeightSync>();
    for (const item of row.items) {
      records++;
      byOperation[item.name] = (byOperation[item.name] ?? 0) + 1;
      const attrs: Attrs = item.type === 'span' ? item.attrs.start_attrs : item.attrs;
      if (TRAINING.has(item.name)) {
        const rolloutId = attrs.rollout_id;
        const start = item.type === 'span' ? item.start_ts : item.ts;
        if (typeof rolloutId === 'number')
          trainingStarts.set(rolloutId, Math.min(trainingStarts.get(rolloutId) ?? start, start));
        continue;
      }
      const version = attrs.weight_version;
      if (typeof version !== 'number') continue;
      const start = item.type === 'span' ? item.start_ts : item.ts;
      const sync = byVersion.get(version) ?? {
        weightVersion: version,
        process,
        startSec: start,
        completeSec: null,
      };
      sync.startSec = Math.min(sync.startSec, start);
      if (item.name === SYNC_COMPLETE) sync.completeSec = start;
      byVersion.set(version, sync);
    }
    syncs.push(...[...byVersion.values()].sort((a, b) => a.weightVersion - b.weightVersion));
  }
  return {
    processes: rows.map((r) => sourceText(r.source) ?? ''),
    records,
    skippedLines,
    byOperation,
    syncs,
    trainingStarts: [...trainingStarts].map(([rolloutId, startSec]) => ({ rolloutId, startSec })),
  };
}
