import createIngestWorker from './ingest-worker?nodeWorker';
import type { OpenProgressReport, OpenedTrace } from '../core/open/open-trace-file';
import type { FileError } from '../core/api/trace-api';
import type { IngestMessage, IngestRequest } from './ingest-protocol';

/** A failed open, carrying what the user sees: code, message, byte offset. */
export class IngestFailure extends Error {
  readonly detail: Omit<FileError, 'fileName'>;
  constructor(detail: Omit<FileError, 'fileName'>) {
    super(detail.message);
    this.detail = detail;
  }
}

export interface IngestJob {
  result: Promise<OpenedTrace>;
  cancel(): void;
}

/** Parses in a worker thread so the main process stays responsive; cancel ends the worker. */
export function ingestInWorker(
  request: IngestRequest,
  onProgress: (progress: OpenProgressReport) => void,
): IngestJob {
  const worker = createIngestWorker({ workerData: request });
  let settled = false;
  let rejectJob: (error: Error) => void = () => undefined;
  const result = new Promise<OpenedTrace>((resolve, reject) => {
    rejectJob = reject;
    worker.on('message', (message: IngestMessage) => {
      if (message.type === 'progress') onProgress(message.progress);
      else if (message.type === 'done') {
        settled = true;
        resolve(message.trace);
        void worker.terminate();
      } else {
        settled = true;
        reject(new IngestFailure(message.error));
        void worker.terminate();
      }
    });
    worker.on('error', (error) => {
      settled = true;
      reject(new IngestFailure({ code: 'open/worker-crashed', message: error.message }));
    });
    worker.on('exit', (code) => {
      if (!settled) {
        reject(
          new IngestFailure({
            code: 'open/worker-exited',
            message: `reader stopped (exit ${code})`,
          }),
        );
      }
    });
  });
  return {
    result,
    cancel() {
      if (settled) return;
      settled = true;
      rejectJob(new IngestFailure({ code: 'open/cancelled', message: 'opening was cancelled' }));
      void worker.terminate();
    },
  };
}
