import createIngestWorker from './ingest-worker?nodeWorker';
import createIngestHostWorker from './ingest-host-worker?nodeWorker';
import type { OpenProgressReport } from '../core/open/open-trace-file';
import type { IngestRequest } from './ingest-protocol';
import { connectIngest, type IngestJob, type PreviewListener } from './ingest-connection';
import { IngestPool, type HostWorker, type IngestRunner } from './ingest-pool';

/**
 * Reading JSON lines makes a million objects that all live on: with V8's default nursery the
 * collector copies each one twice. A larger one for OTLP files (by name; a wrong guess only
 * costs speed) cut the 1M-span open by ~15% for ~100 MB; dumps keep the default (memory).
 */
function youngGeneration(request: IngestRequest): { maxYoungGenerationSizeMb?: number } {
  const otlp = request.sources.some((s) => s.kind === 'path' && /\.jsonl?$/i.test(s.path));
  return otlp ? { maxYoungGenerationSizeMb: 96 } : {};
}

/** Parses in a worker thread so the main process stays responsive; cancel ends the worker. */
export function ingestInWorker(
  request: IngestRequest,
  onProgress: (progress: OpenProgressReport) => void,
  onPreview?: PreviewListener,
): IngestJob {
  const worker = createIngestWorker({
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
  return new IngestPool(() => createIngestHostWorker({}) as HostWorker, ingestInWorker).run;
}
