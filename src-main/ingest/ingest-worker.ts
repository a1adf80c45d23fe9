import { parentPort, receiveMessageOnPort, workerData } from 'node:worker_threads';
import type { FileCallMessage, IngestRequest, OpenRequestMessage } from './ingest-protocol';
import { runIngestSession } from './ingest-session';
import { workerRangeReader } from './worker-range-reader';
import { startMark } from './start-marks';

// Thin worker entry: one open file per worker thread (ingest-session.ts), reading the end of a
// large file on a helper thread. Its file is its workerData, or, for a worker started before the
// file was known (a spare: ingest-client.ts), its first message.
if (parentPort) {
  startMark('worker-loaded');
  const port = parentPort;
  const open = (request: IngestRequest) =>
    runIngestSession(
      {
        postMessage: (message) => port.postMessage(message),
        on: (event, listener) => port.on(event, listener),
        receive: () => receiveMessageOnPort(port)?.message as FileCallMessage | undefined,
      },
      request,
      { partReader: workerRangeReader },
    );
  if (workerData) open(workerData as IngestRequest);
  else port.once('message', (message: OpenRequestMessage) => open(message.request));
}
