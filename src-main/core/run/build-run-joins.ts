import type {
  RunFileDigest,
  RunJoins,
  RunLink,
  RunRollout,
  RunSampleRef,
  RunServerRequest,
  RunStaleSample,
  RunVersionSync,
} from '../model/run';
import { buildExtraJoins } from './build-extra-joins';

export { versionInForce } from './version-in-force';

/**
 * The joins of one run (TRACE_MODEL section 9), over the digests of its files in run order:
 * each sample's generate spans to SGLang's request by `sglang_request_id` = the decode root's
 * `rid`; what stays unjoined on either side, with the likeliest reason; weight versions and
 * staleness (a sample is stale when any of its versions is below the newest version among its
 * rollout's samples); the trainer's records and weight syncs.
 */
export function buildRunJoins(files: RunFileDigest[]): RunJoins {
  const serverByRid = new Map<string, { file: number; request: RunServerRequest }>();
  files.forEach((digest, file) => {
    for (const request of digest.serverRequests) {
      // the first one wins; a rid SGLang reused is not expected
      if (!serverByRid.has(request.rid)) serverByRid.set(request.rid, { file, request });
    }
  });
  const links: RunLink[] = [];
  const askedRids = new Set<string>();
  const samplesWithoutServerRequest: RunJoins['samplesWithoutServerRequest'] = [];
  const stale: RunStaleSample[] = [];
  const rollouts: RunRollout[] = [];
  let samples = 0;
  let samplesWithServerRequests = 0;
  files.forEach((digest, file) => {
    if (digest.role !== 'samples') return;
    const clientsByRow = new Map<number, typeof digest.clientRequests>();
    for (const client of digest.clientRequests) {
      const list = clientsByRow.get(client.rowId) ?? [];
      list.push(client);
      clientsByRow.set(client.rowId, list);
    }
    const versions = digest.samples.flatMap((s) => s.weightVersions.map(Number));
    const finite = versions.filter((v) => Number.isFinite(v));
    const rolloutVersion = finite.length > 0 ? Math.max(...finite) : null;
    if (digest.startSec !== null && digest.endSec !== null) {
      rollouts.push({
        file,
        rolloutId: digest.rolloutId,
        startSec: digest.startSec,
        endSec: digest.endSec,
        weightVersion: rolloutVersion,
      });
    }
    for (const sample of digest.samples) {
      samples++;
      const ref: RunSampleRef = {
        file,
        rowId: sample.rowId,
        sampleIndex: sample.sampleIndex,
        rolloutId: digest.rolloutId,
      };
      const clients = clientsByRow.get(sample.rowId) ?? [];
      let joined = 0;
      for (const client of clients) {
        if (client.rid === null) continue;
        askedRids.add(client.rid);
        const server = serverByRid.get(client.rid);
        if (!server) continue;
        joined++;
        links.push({
          rid: client.rid,
          client: { file, rowId: client.rowId, itemIndex: client.itemIndex },
          server: {
            file: server.file,
            rowId: server.request.rowId,
            itemIndex: server.request.itemIndex,
          },
          leadSec: server.request.startSec - client.startSec,
          tailSec: client.endSec - server.request.endSec,
          stages: stageTotals(server.request),
          serverError: server.request.error,
        });
      }
      if (joined > 0) samplesWithServerRequests++;
      else samplesWithoutServerRequest.push({ ...ref, reason: whyUnjoined(clients) });
      const own = sample.weightVersions.map(Number).filter((v) => Number.isFinite(v));
      if (rolloutVersion !== null && own.some((v) => v < rolloutVersion)) {
        stale.push({ ...ref, weightVersions: sample.weightVersions, rolloutVersion });
      }
    }
  });
  const serverRequestsWithoutSample: RunJoins['serverRequestsWithoutSample'] = [];
  let serverRequests = 0;
  files.forEach((digest, file) => {
    for (const request of digest.serverRequests) {
      serverRequests++;
      if (askedRids.has(request.rid)) continue;
      serverRequestsWithoutSample.push({
        file,
        rowId: request.rowId,
        rid: request.rid,
        error: request.error,
        likelyClient: clientAround(files, request),
      });
    }
  });
  const trainers = files.filter((f) => f.trainer !== null).map((f) => f.trainer!);
  const byOperation: Record<string, number> = {};
  for (const trainer of trainers) {
    for (const [op, n] of Object.entries(trainer.byOperation))
      byOperation[op] = (byOperation[op] ?? 0) + n;
  }
  const syncs = versionSyncs(trainers.flatMap((t) => t.syncs));
  const extra = buildExtraJoins(files, syncs);
  for (const rollout of rollouts) {
    const figures = extra?.rollouts.find((r) => r.file === rollout.file);
    if (figures) rollout.figures = figures;
  }
  return {
    counts: {
      samples,
      samplesWithServerRequests,
      samplesWithoutServerRequest: samplesWithoutServerRequest.length,
      serverRequests,
      serverRequestsWithoutSample: serverRequestsWithoutSample.length,
      staleSamples: stale.length,
      // each only when the run holds such files: a run without them keeps its keys
      ...(files.some((f) => f.train) ? { train: extra!.counts.train } : {}),
      ...(files.some((f) => f.requestMetrics)
        ? { requestMetrics: extra!.counts.requestMetrics }
        : {}),
    },
    trainer: {
      files: trainers.length,
      records: trainers.reduce((n, t) => n + t.records, 0),
      skippedLines: trainers.reduce((n, t) => n + t.skippedLines, 0),
      byOperation: Object.fromEntries(
        Object.entries(byOperation).sort(([a], [b]) => (a < b ? -1 : 1)),
      ),
    },
    links,
    samplesWithoutServerRequest,
    serverRequestsWithoutSample,
    stale,
    rollouts: rollouts.sort((a, b) => a.startSec - b.startSec),
    versionSyncs: syncs,
    extra,
  };
}

/** A request's stages summed per (stage, thread), in the order they first ran. */
function stageTotals(request: RunServerRequest): RunLink['stages'] {
  const totals = new Map<string, RunLink['stages'][number]>();
  for (const s of request.stages) {
    const key = `${s.stage}\u0000${s.lane ?? ''}`;
    const total = totals.get(key) ?? { stage: s.stage, lane: s.lane, durationSec: 0 };
    total.durationSec += s.durationSec;
    totals.set(key, total);
  }
  return [...totals.values()];
}

function whyUnjoined(clients: { rid: string | null }[]): string {
  if (clients.length === 0) return 'no generate span';
  if (clients.every((c) => c.rid === null)) return 'no request id (client timeout or abort)';
  return 'request id not in the server files';
}

/** The generate span without request id whose time holds this server request (an abort). */
function clientAround(
  files: RunFileDigest[],
  request: RunServerRequest,
): RunJoins['serverRequestsWithoutSample'][number]['likelyClient'] {
  for (let file = 0; file < files.length; file++) {
    const digest = files[file];
    for (const client of digest.clientRequests) {
      if (client.rid !== null) continue;
      if (client.startSec <= request.startSec && request.startSec <= client.endSec) {
        return {
          file,
          rowId: client.rowId,
          sampleIndex: client.sampleIndex,
          rolloutId: digest.rolloutId,
          itemIndex: client.itemIndex,
          attempt: client.attempt,
        };
      }
    }
  }
  return null;
}

/** Each weight version over all trainer processes: first sync start, last completion. */
function versionSyncs(syncs: RunVersionSync[]): RunVersionSync[] {
  const byVersion = new Map<number, RunVersionSync>();
  const incomplete = new Set<number>();
  for (const sync of syncs) {
    const v = byVersion.get(sync.weightVersion) ?? {
      weightVersion: sync.weightVersion,
      startSec: sync.startSec,
      completeSec: null,
    };
    v.startSec = Math.min(v.startSec, sync.startSec);
    if (sync.completeSec === null) incomplete.add(sync.weightVersion);
    else v.completeSec = Math.max(v.completeSec ?? -Infinity, sync.completeSec);
    byVersion.set(sync.weightVersion, v);
  }
  // a version some process has not finished syncing is not yet in force
  for (const version of incomplete) byVersion.get(version)!.completeSec = null;
  return [...byVersion.values()].sort((a, b) => a.weightVersion - b.weightVersion);
}
