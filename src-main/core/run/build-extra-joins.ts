import type { RunClientRequest, RunFileDigest, RunVersionSync } from '../model/run';
import type {
  RunExtraJoins,
  RunExtraSampleRef,
  RunRolloutFigures,
  RunSampleFigures,
  RunSampleRequestFigures,
} from '../model/run-extra';
import type { RequestMetricsRecord, TrainSampleRecord } from '../model/run-records';
import { rolloutFigures } from './rollout-figures';
import { sampleStaleness, trainerVersionOf } from './token-staleness';

/**
 * The joins of a run's train-side dumps and request-metrics logs (docs/run-extra.md): a train
 * sample to the rollout sample at its rollout_id and rollout_position; a request-metrics record
 * to the sample whose generate call had its rid (slime's sglang_request_id). Unjoined ones are
 * counted and listed both ways. Null when the run has neither kind of file.
 */
export function buildExtraJoins(
  files: RunFileDigest[],
  versionSyncs: RunVersionSync[],
): RunExtraJoins | null {
  const trainFiles = files.some((f) => f.train);
  const metricsFiles = files.some((f) => f.requestMetrics);
  if (!trainFiles && !metricsFiles) return null;

  // rollout samples by (rollout id, position = row id); their generate calls by rid
  const sampleAt = new Map<string, { file: number; rowId: number }>();
  const callByRid = new Map<string, { file: number; client: RunClientRequest }>();
  files.forEach((digest, file) => {
    if (digest.role !== 'samples') return;
    for (const s of digest.samples)
      sampleAt.set(key(digest.rolloutId, s.rowId), { file, rowId: s.rowId });
    for (const client of digest.clientRequests) {
      if (client.rid !== null && !callByRid.has(client.rid))
        callByRid.set(client.rid, { file, client });
    }
  });

  const trainOf = new Map<string, { file: number; record: TrainSampleRecord }>();
  const trainWithoutSample: RunExtraJoins['trainWithoutSample'] = [];
  const dumpedRollouts = new Set<string>();
  let trainSamples = 0;
  files.forEach((digest, file) => {
    if (!digest.train) return;
    for (const record of digest.train.samples) {
      trainSamples++;
      const rolloutId = record.rolloutId ?? digest.train.rolloutId;
      dumpedRollouts.add(String(rolloutId));
      const at = key(rolloutId, record.rolloutPosition);
      if (record.rolloutPosition === null || !sampleAt.has(at)) {
        trainWithoutSample.push({
          file,
          index: record.index,
          rolloutId,
          rolloutPosition: record.rolloutPosition,
          reason:
            record.rolloutPosition === null
              ? 'no rollout_position'
              : `no sample at rollout ${String(rolloutId)} position ${record.rolloutPosition} (no such dump in the run, or the sample has no trace)`,
        });
      } else if (!trainOf.has(at)) trainOf.set(at, { file, record });
    }
  });

  const recordsByRid = new Map<string, { file: number; record: RequestMetricsRecord }>();
  const recordsWithoutSample: RunExtraJoins['recordsWithoutSample'] = [];
  let records = 0;
  let skippedLines = 0;
  files.forEach((digest, file) => {
    if (!digest.requestMetrics) return;
    skippedLines += digest.requestMetrics.skippedLines;
    for (const record of digest.requestMetrics.records) {
      records++;
      if (!recordsByRid.has(record.rid)) recordsByRid.set(record.rid, { file, record });
      if (!callByRid.has(record.rid))
        recordsWithoutSample.push({
          file,
          rowId: record.rowId,
          rid: record.rid,
          finishType: record.finishType,
        });
    }
  });

  const samples: RunSampleFigures[] = [];
  const samplesWithoutTrain: RunExtraSampleRef[] = [];
  const samplesWithoutRecord: RunExtraSampleRef[] = [];
  const rollouts: RunRolloutFigures[] = [];
  files.forEach((digest, file) => {
    if (digest.role !== 'samples') return;
    const trainerVersion = trainerVersionOf(files, digest, versionSyncs);
    const calls = new Map<number, RunClientRequest[]>();
    for (const client of digest.clientRequests) {
      const list = calls.get(client.rowId) ?? [];
      list.push(client);
      calls.set(client.rowId, list);
    }
    const rolloutSamples: RunSampleFigures[] = [];
    for (const s of digest.samples) {
      const ref: RunExtraSampleRef = {
        file,
        rowId: s.rowId,
        sampleIndex: s.sampleIndex,
        rolloutId: digest.rolloutId,
      };
      const train = trainOf.get(key(digest.rolloutId, s.rowId)) ?? null;
      if (train === null && dumpedRollouts.has(String(digest.rolloutId)))
        samplesWithoutTrain.push(ref);
      const requests: RunSampleRequestFigures[] = [];
      for (const client of calls.get(s.rowId) ?? []) {
        const found = client.rid === null ? undefined : recordsByRid.get(client.rid);
        if (found) requests.push(requestFigures(found.file, found.record, client));
      }
      if (metricsFiles && requests.length === 0) samplesWithoutRecord.push(ref);
      const tokens =
        train?.record.mismatch?.tokens ?? train?.record.responseLength ?? s.responseLength;
      const figures: RunSampleFigures = {
        ...ref,
        train: train && {
          file: train.file,
          index: train.record.index,
          dpRank: train.record.dpRank,
          mismatch: train.record.mismatch,
          meanEntropy: train.record.meanEntropy,
          meanKl: train.record.meanKl,
        },
        requests,
        ...requestTotals(requests),
        dpRank: train?.record.dpRank ?? requests[0]?.dpRank ?? null,
        staleness: sampleStaleness(trainerVersion, s.weightVersions, requests, tokens),
      };
      rolloutSamples.push(figures);
    }
    samples.push(...rolloutSamples);
    const trainRecords = [...trainOf.values()]
      .filter(({ record }) => String(record.rolloutId) === String(digest.rolloutId))
      .map(({ record }) => record);
    const shards = files.find(
      (f) => f.train && String(f.train.rolloutId) === String(digest.rolloutId),
    );
    rollouts.push(
      rolloutFigures(
        file,
        digest,
        rolloutSamples,
        trainRecords,
        trainerVersion,
        shards?.train?.dpShards ?? [],
      ),
    );
  });

  const recordsWithSample = records - recordsWithoutSample.length;
  return {
    counts: {
      train: {
        samples: trainSamples,
        joinedSamples: trainOf.size,
        unjoinedSamples: trainSamples - trainOf.size,
      },
      requestMetrics: {
        records,
        recordsWithSample,
        recordsWithoutSample: recordsWithoutSample.length,
        samplesWithoutRecord: samplesWithoutRecord.length,
        skippedLines,
      },
    },
    trainWithoutSample,
    samplesWithoutTrain,
    recordsWithoutSample,
    samplesWithoutRecord,
    samples,
    rollouts,
  };
}

function key(rolloutId: unknown, position: number | null): string {
  return `${String(rolloutId)}\u0000${String(position)}`;
}

function requestFigures(
  file: number,
  record: RequestMetricsRecord,
  client: RunClientRequest,
): RunSampleRequestFigures {
  return {
    file,
    rowId: record.rowId,
    rid: record.rid,
    finishType: record.finishType,
    promptTokens: record.promptTokens,
    completionTokens: record.completionTokens,
    cachedTokens: record.cachedTokens,
    cachedDevice: record.cachedDevice,
    cachedHost: record.cachedHost,
    cachedStorage: record.cachedStorage,
    retractions: record.retractions,
    dpRank: record.dpRank,
    weightVersion: record.weightVersion,
    queueSec: record.queueSec,
    inferenceSec: record.inferenceSec,
    clientOverheadSec: record.finishedSec === null ? null : client.endSec - record.finishedSec,
  };
}

/** A sample's request figures over its calls: sums, and cached over prompt tokens. */
function requestTotals(
  requests: RunSampleRequestFigures[],
): Pick<RunSampleFigures, 'cacheHit' | 'retractions' | 'queueSec' | 'clientOverheadSec'> {
  if (requests.length === 0)
    return { cacheHit: null, retractions: null, queueSec: null, clientOverheadSec: null };
  const sum = (pick: (r: RunSampleRequestFigures) => number | null) => {
    const values = requests.map(pick).filter((v): v is number => v !== null);
    return values.length === 0 ? null : values.reduce((a, b) => a + b, 0);
  };
  const prompt = sum((r) => r.promptTokens);
  const cached = sum((r) => r.cachedTokens) ?? 0;
  return {
    cacheHit: prompt === null || prompt === 0 ? null : cached / prompt,
    retractions: sum((r) => r.retractions),
    queueSec: sum((r) => r.queueSec),
    clientOverheadSec: sum((r) => r.clientOverheadSec),
  };
}
