import { workerData, type MessagePort } from 'node:worker_threads';
import { openFileSource } from '../core/bytes/file-source';
import { formatById } from '../core/formats/registry';
import { PartBoundary } from '../core/bytes/part-reader';
import { startMark } from './start-marks';
import {
  RANGE_BOUNDARY,
  RANGE_BYTES,
  RANGE_DONE,
  RANGE_FAILED,
  RANGE_FROM_CANCELLED,
  RANGE_FROM_F64,
  RANGE_FROM_STATE,
  RANGE_FROM_TOLD,
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
  /** where the part starts, or the least it can start at while RANGE_FROM_STATE is untold */
  from: number;
  port: MessagePort;
  /** the slots of range-signal.ts */
  signal: Int32Array;
}

startMark('helper-loaded');
const { format, path, from, port, signal } = workerData as RangeWorkerData;

/** PartHelper.partStart: the part's start, waited for while the file's thread has not told it */
function partStart(): number | null {
  for (;;) {
    const state = Atomics.load(signal, RANGE_FROM_STATE);
    if (state === RANGE_FROM_TOLD) return new Float64Array(signal.buffer)[RANGE_FROM_F64];
    if (state === RANGE_FROM_CANCELLED) return null;
    // (a bound on each wait: a file's thread that ends this worker without telling ends it)
    Atomics.wait(signal, RANGE_FROM_STATE, state, 1000);
  }
}
try {
  const source = openFileSource(path);
  try {
    const readPart = formatById(format).readPart;
    if (!readPart) throw new Error(`format ${format} is not read in parts`);
    const { part, transfer } = readPart(source, from, {
      onBytes: (bytes) => Atomics.store(signal, RANGE_BYTES, Math.floor(bytes / 1024)),
      onPosting: () => Atomics.store(signal, RANGE_STATE, RANGE_POSTING),
      boundary: new PartBoundary(signal, RANGE_BOUNDARY),
      partStart,
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
