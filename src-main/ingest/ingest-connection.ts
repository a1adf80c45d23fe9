import type { OpenProgressReport, OpenedTrace } from '../core/open/open-trace-file';
import type { FileError } from '../core/api/trace-api';
import { NotFoundError } from '../core/api/call-errors';
import type { FileCallMessage, FileCalls, IngestMessage } from './ingest-protocol';
import { startMark } from './start-marks';

/** A failed open, carrying what the user sees: code, message, byte offset. */
export class IngestFailure extends Error {
  readonly detail: Omit<FileError, 'fileName'>;
  constructor(detail: Omit<FileError, 'fileName'>) {
    super(detail.message);
    this.detail = detail;
  }
}

type Answer<K extends keyof FileCalls> = ReturnType<FileCalls[K]>;

/** An open file, held by its worker: calls on it are answered there; close ends the worker. */
export interface OpenedFile {
  summary: OpenedTrace['summary'];
  call<K extends keyof FileCalls>(method: K, ...args: Parameters<FileCalls[K]>): Promise<Answer<K>>;
  close(): void;
}

export interface IngestJob {
  result: Promise<OpenedFile>;
  cancel(): void;
}

/** Main's side of a file's worker: a worker thread in the app (ingest-client.ts). */
export interface IngestWorker {
  postMessage(message: FileCallMessage): void;
  on(event: 'message', listener: (message: IngestMessage) => void): unknown;
  on(event: 'error', listener: (error: Error) => void): unknown;
  on(event: 'exit', listener: (code: number) => void): unknown;
  terminate(): unknown;
}

/**
 * The rows read so far of a file still being read: its summary so far, and the file whose
 * calls the worker answers between reading steps (the same object the job resolves to).
 */
export type PreviewListener = (summary: OpenedTrace['summary'], file: OpenedFile) => void;

/**
 * Follows a file's worker while it opens the file (progress and previews, then its summary or
 * why not), then sends it calls; cancel and close end the worker.
 */
export function connectIngest(
  worker: IngestWorker,
  onProgress: (progress: OpenProgressReport) => void,
  onPreview?: PreviewListener,
): IngestJob {
  let settled = false;
  let stopped: string | null = null;
  let rejectJob: (error: Error) => void = () => undefined;
  let nextId = 1;
  const pending = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void }>();
  const stop = (why: string) => {
    stopped = why;
    for (const call of pending.values()) call.reject(new Error(why));
    pending.clear();
    void worker.terminate();
  };
  const file: OpenedFile = {
    summary: null as unknown as OpenedTrace['summary'],
    call(method, ...args) {
      if (stopped !== null) return Promise.reject(new Error(stopped));
      const id = nextId++;
      return new Promise((resolve, reject) => {
        pending.set(id, { resolve: resolve as (v: unknown) => void, reject });
        worker.postMessage({ type: 'call', id, method, args } satisfies FileCallMessage);
      });
    },
    close: () => stop('the file was closed'),
  };
  const opened = (summary: OpenedTrace['summary']): OpenedFile => {
    file.summary = summary;
    return file;
  };
  const result = new Promise<OpenedFile>((resolve, reject) => {
    rejectJob = reject;
    worker.on('message', (message: IngestMessage) => {
      // progress posted before a cancel (or the end) is still delivered after it, as the
      // thread exits: the open is over, and saying otherwise would show it again
      if (message.type === 'progress') {
        if (!settled) onProgress(message.progress);
      } else if (message.type === 'preview') {
        startMark(`preview-received-${message.summary.rows}`);
        if (!settled) onPreview?.(message.summary, opened(message.summary));
      } else if (message.type === 'answer') {
        const call = pending.get(message.id);
        pending.delete(message.id);
        if (!call) return;
        if (!message.error) call.resolve(message.result);
        else if (message.error.notFound) call.reject(new NotFoundError(message.error.message));
        else call.reject(new Error(message.error.message));
      } else if (message.type === 'done') {
        startMark('done-received');
        settled = true;
        resolve(opened(message.summary));
      } else {
        settled = true;
        reject(new IngestFailure(message.error));
        void worker.terminate();
      }
    });
    worker.on('error', (error) => {
      if (!settled) {
        settled = true;
        reject(new IngestFailure({ code: 'open/worker-crashed', message: error.message }));
      }
      stop(`the file's reader stopped: ${error.message}`);
    });
    worker.on('exit', (code) => {
      if (!settled) {
        settled = true;
        reject(
          new IngestFailure({
            code: 'open/worker-exited',
            message: `reader stopped (exit ${code})`,
          }),
        );
      }
      if (stopped === null) stop(`the file's reader stopped (exit ${code})`);
    });
  });
  return {
    result,
    cancel() {
      if (settled) return;
      settled = true;
      rejectJob(new IngestFailure({ code: 'open/cancelled', message: 'opening was cancelled' }));
      stop('opening was cancelled');
    },
  };
}
