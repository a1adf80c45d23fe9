import { parentPort, workerData } from 'node:worker_threads';
import { basename } from 'node:path';
import { ingest, toFileError } from '../ingest/open-sources';
import { trendFigures } from '../core/trends/trend-figures';
import type { TrendWorkerMessage } from './trend-protocol';

// One dump's trend figures, off the main thread: open it, compute, post, end. Nothing of the
// dump outlives the worker.
const { path } = workerData as { path: string };
const post = (message: TrendWorkerMessage) => parentPort?.postMessage(message);
let last = 0;
try {
  const trace = ingest(
    { sources: [{ kind: 'path', path }] },
    {
      onProgress: (progress) => {
        const now = Date.now();
        if (now - last < 100) return;
        last = now;
        post({ type: 'progress', bytesRead: progress.bytesRead });
      },
    },
  );
  post({
    type: 'done',
    point: trendFigures({
      path,
      name: basename(path),
      rolloutId: trace.summary.rolloutId,
      rows: trace.rows,
      samples: trace.samples,
      perf: trace.perf,
    }),
  });
} catch (error) {
  post({ type: 'failed', error: toFileError(error) });
}
