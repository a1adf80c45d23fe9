import { parentPort } from 'node:worker_threads';
import { basename } from 'node:path';
import { ingestFigures, toFileError } from '../ingest/open-sources';
import { trendFigures } from '../core/trends/trend-figures';
import type { TrendJobMessage, TrendJobRequest, TrendWorkerMessage } from './trend-protocol';

// A long-lived thread of the trend pool (trend-pool.ts): it reads one dump per job, off the main
// thread, and posts its point. Only what the figures need is built (no store); nothing of a
// dump is kept after its job.
parentPort?.on('message', ({ job, path }: TrendJobRequest) => {
  const post = (message: TrendWorkerMessage) =>
    parentPort?.postMessage({ ...message, job } satisfies TrendJobMessage);
  let last = 0;
  try {
    const trace = ingestFigures(path, {
      onProgress: (progress) => {
        const now = Date.now();
        if (now - last < 100) return;
        last = now;
        post({ type: 'progress', bytesRead: progress.bytesRead });
      },
    });
    post({
      type: 'done',
      point: trendFigures({ path, name: basename(path), ...trace }),
    });
  } catch (error) {
    post({ type: 'failed', error: toFileError(error) });
  }
});
