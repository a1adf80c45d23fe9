import { parentPort } from 'node:worker_threads';
import { toFileError } from '../ingest/open-sources';
import { readTrendDump } from './read-trend-dump';
import type { TrendJobMessage, TrendJobRequest, TrendWorkerMessage } from './trend-protocol';

// A long-lived thread of the trend pool (trend-pool.ts): it reads one dump per job, off the main
// thread, and posts its point (and its run digest when asked). Only what the figures need is
// built (no store); nothing of a dump is kept after its job.
parentPort?.on('message', ({ job, path, digest }: TrendJobRequest) => {
  const post = (message: TrendWorkerMessage) =>
    parentPort?.postMessage({ ...message, job } satisfies TrendJobMessage);
  let last = 0;
  try {
    const read = readTrendDump(path, {
      digest,
      onProgress: (progress) => {
        const now = Date.now();
        if (now - last < 100) return;
        last = now;
        post({ type: 'progress', bytesRead: progress.bytesRead });
      },
    });
    post({ type: 'done', ...read });
  } catch (error) {
    post({ type: 'failed', error: toFileError(error) });
  }
});
