import createIngestWorker from './ingest-worker?nodeWorker';
import createIngestHostWorker from './ingest-host-worker?nodeWorker';
import type { OpenProgressReport } from '../core/open/open-trace-file';
import type { Worker } from 'node:worker_threads';
import type { IngestRequest, OpenRequestMessage } from './ingest-protocol';
import { connectIngest, type IngestJob, type PreviewListener } from './ingest-connection';
import { IngestPool, type HostWorker, type IngestRunner } from './ingest-pool';
import { startMark } from './start-marks';
import { youngGenerationFor } from './young-generation';

/** The young generation of a file's worker: by the paths it reads (young-generation.ts). */
function youngGeneration(request: IngestRequest): { maxYoungGenerationSizeMb?: number } {
  return youngGenerationFor(request.sources.flatMap((s) => (s.kind === 'path' ? [s.path] : [])));
}

/**
 * A worker started before its file is known (prestartIngestWorker), waiting for it: it loads
 * its code while the process loads its own, and the first large file opened takes it.
 */
let spare: { worker: Worker; drop: () => void } | null = null;

/**
 * Starts a file's worker now, before a file is asked for: serve mode named with a file starts
 * it before loading the rest of itself (cli.ts), and the file's first rows come that much
 * sooner (`npm run bench firstrows`: the worker's start and module load were the largest step
 * before its first sample was read). It does not keep the process alive while it waits.
 */
export function prestartIngestWorker(): void {
  if (spare !== null) return;
  const worker = createIngestWorker({ workerData: null });
  worker.unref();
  // one that failed to start is not handed a file: the next open starts its own
  const drop = () => {
    if (spare?.worker === worker) spare = null;
  };
  worker.once('error', drop);
  worker.once('exit', drop);
  spare = { worker, drop };
}

/**
 * Ends the spare worker if no file took it: it is there for the first file's first rows only,
 * and idle it holds 10-30 MB for the process's life (a small file or an OTLP one never takes
 * it: they go to the host threads, or a worker with a larger nursery).
 */
function dropSpare(): void {
  if (spare === null) return;
  const { worker, drop } = spare;
  drop();
  void worker.terminate();
  startMark('spare-dropped');
}

/** The spare worker, handed `request` (null: none, or its defaults do not suit the request). */
function takeSpare(request: IngestRequest): Worker | null {
  if (spare === null || youngGeneration(request).maxYoungGenerationSizeMb !== undefined)
    return null;
  const { worker, drop } = spare;
  spare = null;
  worker.off('error', drop);
  worker.off('exit', drop);
  worker.ref();
  worker.postMessage({ type: 'open', request } satisfies OpenRequestMessage);
  return worker;
}

/** Parses in a worker thread so the main process stays responsive; cancel ends the worker. */
export function ingestInWorker(
  request: IngestRequest,
  onProgress: (progress: OpenProgressReport) => void,
  onPreview?: PreviewListener,
): IngestJob {
  const spareWorker = takeSpare(request);
  // the breakdown tells whether the file took the worker started ahead
  startMark(spareWorker ? 'worker-asked-spare' : 'worker-asked-new');
  const worker =
    spareWorker ??
    createIngestWorker({
      workerData: request,
      resourceLimits: youngGeneration(request),
    });
  return connectIngest(worker, onProgress, onPreview);
}

/**
 * Where the app opens files (desktop and serve mode): small files on a few shared host threads,
 * a large or compressed one on a worker of its own (ingest-pool.ts).
 */
export function ingestInPool(): IngestRunner {
  const run = new IngestPool(() => createIngestHostWorker({}) as HostWorker, ingestInWorker).run;
  return (request, onProgress, onPreview) => {
    const job = run(request, onProgress, onPreview);
    // the files named together (a run's) are all asked for before the first one is read, so
    // one of them that would take the spare has taken it by now
    void job.result.then(dropSpare, dropSpare);
    return job;
  };
}
