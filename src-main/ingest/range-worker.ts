import { workerData, type MessagePort } from 'node:worker_threads';
import { openFileSource } from '../core/bytes/file-source';
import { readRangeToColumns } from '../core/formats/otlp/read-otlp';
import { RANGE_BYTES, RANGE_DONE, RANGE_FAILED, RANGE_POSTING, RANGE_STATE } from './range-signal';

// Thin helper entry: reads the end of a large OTLP file while the file's worker reads its
// start, posts the spans as columns, then raises the signal that worker is blocked on.
export interface RangeWorkerData {
  path: string;
  from: number;
  port: MessagePort;
  /** RANGE_STATE and RANGE_BYTES (range-signal.ts) */
  signal: Int32Array;
}

const { path, from, port, signal } = workerData as RangeWorkerData;
try {
  const source = openFileSource(path);
  try {
    const { read, transfer } = readRangeToColumns(
      source,
      from,
      (bytes) => Atomics.store(signal, RANGE_BYTES, Math.floor(bytes / 1024)),
      () => Atomics.store(signal, RANGE_STATE, RANGE_POSTING),
    );
    port.postMessage({ read }, transfer);
  } finally {
    source.close();
  }
  Atomics.store(signal, RANGE_STATE, RANGE_DONE);
} catch (error) {
  port.postMessage({ error: error instanceof Error ? error.message : String(error) });
  Atomics.store(signal, RANGE_STATE, RANGE_FAILED);
}
Atomics.notify(signal, RANGE_STATE);
port.close();
