import { parentPort, receiveMessageOnPort } from 'node:worker_threads';
import type { HostInMessage } from './ingest-protocol';
import { runIngestHost } from './ingest-host';
import { workerRangeReader } from './worker-range-reader';

// Thin worker entry: a pooled thread holding many small files (ingest-host.ts).
if (parentPort) {
  const port = parentPort;
  runIngestHost(
    {
      postMessage: (message) => port.postMessage(message),
      on: (event, listener) => port.on(event, listener),
      receive: () => receiveMessageOnPort(port)?.message as HostInMessage | undefined,
    },
    { partReader: workerRangeReader },
  );
}
