import { workerData, type MessagePort } from 'node:worker_threads';
import { openFileSource } from '../core/bytes/file-source';
import { formatById } from '../core/formats/registry';
import { PartBoundary } from '../core/bytes/part-reader';
import {
  RANGE_BOUNDARY,
  RANGE_BYTES,
  RANGE_DONE,
  RANGE_FAILED,
  RANGE_POSTING,
  RANGE_STATE,
} from './range-signal';

// Thin helper entry: reads the end of a large file with its format's readPart while the
// file's worker reads its start, posts the part (OTLP: spans as columns), then raises the
// signal that worker is blocked on.
export interface RangeWorkerData {
  /** the id of the file's format, whose readPart reads the part */
  format: string;
  path: string;
  from: number;
  port: MessagePort;
  /** RANGE_STATE and RANGE_BYTES (range-signal.ts) */
  signal: Int32Array;
}

const { format, path, from, port, signal } = workerData as RangeWorkerData;
try {
  const source = openFileSource(path);
  try {
    const readPart = formatById(format).readPart;
    if (!readPart) throw new Error(`format ${format} is not read in parts`);
    const { part, transfer } = readPart(source, from, {
      onBytes: (bytes) => Atomics.store(signal, RANGE_BYTES, Math.floor(bytes / 1024)),
      onPosting: () => Atomics.store(signal, RANGE_STATE, RANGE_POSTING),
      boundary: new PartBoundary(signal, RANGE_BOUNDARY),
      send: (piece, pieceTransfer) => port.postMessage({ piece }, pieceTransfer),
    });
    port.postMessage({ part }, transfer);
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
