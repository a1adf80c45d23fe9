import { parentPort, workerData } from 'node:worker_threads';
import type { FileCallMessage, IngestMessage, IngestRequest } from './ingest-protocol';
import { ingest, toFileError } from './open-sources';
import { fileCalls } from './file-calls';
import { stepTimer } from '../core/open/step-timer';
import { NotFoundError } from '../api/call-errors';

// Thin worker entry: parse off the main thread, post progress at most every 50 ms, then keep
// the opened file and answer calls on it until main ends the worker (close or cancel). The
// rows never cross threads: a million items cost seconds and their size again to copy.
const PROGRESS_INTERVAL_MS = 50;

function post(message: IngestMessage): void {
  parentPort?.postMessage(message);
}

const request = workerData as IngestRequest;
let lastProgress = 0;
try {
  const timer = stepTimer();
  const trace = ingest(request, {
    onStepEnd: timer.end,
    onProgress: (progress) => {
      const now = Date.now();
      if (now - lastProgress < PROGRESS_INTERVAL_MS && progress.phase === 'reading') return;
      lastProgress = now;
      post({ type: 'progress', progress });
    },
  });
  trace.summary.openTimings = timer.timings();
  const calls = fileCalls(trace, request.sources);
  parentPort?.on('message', (message: FileCallMessage) => {
    try {
      const method = calls[message.method] as (...args: unknown[]) => unknown;
      post({ type: 'answer', id: message.id, result: method(...message.args) });
    } catch (error) {
      post({
        type: 'answer',
        id: message.id,
        error: {
          notFound: error instanceof NotFoundError,
          message: error instanceof Error ? error.message : String(error),
        },
      });
    }
  });
  post({ type: 'done', summary: trace.summary });
} catch (error) {
  post({ type: 'failed', error: toFileError(error) });
}
