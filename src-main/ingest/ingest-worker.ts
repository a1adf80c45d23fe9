import { parentPort, receiveMessageOnPort, workerData } from 'node:worker_threads';
import type { FileCallMessage, IngestRequest } from './ingest-protocol';
import { runIngestSession } from './ingest-session';
import { workerRangeReader } from './worker-range-reader';

// Thin worker entry: one open file per worker thread (ingest-session.ts), reading the end of a
// large file on a helper thread.
if (parentPort) {
  const port = parentPort;
  runIngestSession(
    {
      postMessage: (message) => port.postMessage(message),
      on: (event, listener) => port.on(event, listener),
      receive: () => receiveMessageOnPort(port)?.message as FileCallMessage | undefined,
    },
    workerData as IngestRequest,
    { partReader: workerRangeReader },
  );
}
