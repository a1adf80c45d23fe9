import { parentPort, workerData } from 'node:worker_threads';
import type { IngestRequest } from './ingest-protocol';
import { runIngestSession } from './ingest-session';
import { workerRangeReader } from './worker-range-reader';

// Thin worker entry: one open file per worker thread (ingest-session.ts), reading the end of a
// large file on a helper thread.
if (parentPort) {
  runIngestSession(parentPort, workerData as IngestRequest, { partReader: workerRangeReader });
}
