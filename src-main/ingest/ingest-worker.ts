import { parentPort, workerData } from 'node:worker_threads';
import type { IngestMessage, IngestRequest } from './ingest-protocol';
import { ingest, toFileError } from './open-sources';

// Thin worker entry: parse off the main thread, post progress at most every 50 ms, post the
// result once. Cancel is worker.terminate() from the client, so no flag is polled here.
const PROGRESS_INTERVAL_MS = 50;

function post(message: IngestMessage): void {
  parentPort?.postMessage(message);
}

const request = workerData as IngestRequest;
let lastProgress = 0;
try {
  const trace = ingest(request, {
    onProgress: (progress) => {
      const now = Date.now();
      if (now - lastProgress < PROGRESS_INTERVAL_MS && progress.phase === 'reading') return;
      lastProgress = now;
      post({ type: 'progress', progress });
    },
  });
  post({ type: 'done', trace });
} catch (error) {
  post({ type: 'failed', error: toFileError(error) });
}
