import { MessageChannel } from 'node:worker_threads';
import type { FormatList } from '../../src-main/core/formats/registry';
import type { OpenProgressReport } from '../../src-main/core/open/open-trace-file';
import {
  connectIngest,
  type IngestJob,
  type IngestWorker,
  type PreviewListener,
} from '../../src-main/ingest/ingest-connection';
import type { IngestRequest } from '../../src-main/ingest/ingest-protocol';
import { runIngestSession, type SessionPort } from '../../src-main/ingest/ingest-session';

/**
 * The ingest worker's session and main's connection to it, over a real MessageChannel (every
 * message structured-cloned, as between threads) but in this thread: vitest cannot start the
 * built worker with a format that only a test defines. Only the thread itself is left out.
 */
export function ingestInThread(formats: FormatList) {
  return (
    request: IngestRequest,
    onProgress: (p: OpenProgressReport) => void,
    onPreview?: PreviewListener,
  ): IngestJob => {
    const { port1, port2 } = new MessageChannel();
    const worker: IngestWorker = {
      postMessage: (message) => port1.postMessage(message),
      // a channel has no 'error' or 'exit': only the thread could fail that way
      on: (event: string, listener: (message: never) => void) =>
        event === 'message' ? port1.on('message', listener as (message: unknown) => void) : port1,
      terminate: () => port1.close(),
    };
    const job = connectIngest(worker, onProgress, onPreview);
    // as workerData is: a structured clone of the request
    runIngestSession(port2 as unknown as SessionPort, structuredClone(request), { formats });
    return job;
  };
}
