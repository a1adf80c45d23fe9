import { availableParallelism } from 'node:os';
import { MessageChannel, receiveMessageOnPort } from 'node:worker_threads';
import createRangeWorker from './range-worker?nodeWorker';
import { startMark } from './start-marks';
import { youngGenerationFor } from './young-generation';
import { PartBoundary, type FormatPartReader } from '../core/bytes/part-reader';
import {
  RANGE_BOUNDARY,
  RANGE_BYTES,
  RANGE_DONE,
  RANGE_FROM_CANCELLED,
  RANGE_FROM_F64,
  RANGE_FROM_STATE,
  RANGE_FROM_TOLD,
  RANGE_FROM_UNTOLD,
  RANGE_POSTING,
  RANGE_RUNNING,
  RANGE_SIGNAL_BYTES,
  RANGE_STATE,
} from './range-signal';

/**
 * A helper that shows no progress for this long while reading is given up on and its part
 * read here. Packing and posting its columns reports no progress and takes longer on a busy
 * machine, so that step gets its own, longer bound (a helper that died there never ends it).
 */
const STALL_MS = 10_000;
const POSTING_MS = 60_000;
const TICK_MS = 50;

// TRACE_EXPLORER_THREADS=1 keeps reading on one thread (a busy machine, a comparison); a larger
// number stands for the machine's (what more cores would do, and tests of reading in parts)
const THREADS = Number(process.env.TRACE_EXPLORER_THREADS) || availableParallelism();
// TRACE_EXPLORER_SPLIT_MIN_SECONDS: how long the rest of a file must take one thread to be read
// by two (PartReader.splitMinSeconds): 0 reads every file past the split size in parts (tests)
const splitMinSeconds = process.env.TRACE_EXPLORER_SPLIT_MIN_SECONDS;

/**
 * Reads the second half of a large file on a second thread, with its format's readPart. The
 * reader is synchronous (one pipeline for the worker and the headless commands), so the file's
 * thread blocks on a shared signal (Atomics.wait) and takes the result with receiveMessageOnPort.
 */
export const workerRangeReader: FormatPartReader = {
  threads: THREADS,
  splitMinSeconds: splitMinSeconds ? Number(splitMinSeconds) : undefined,
  start(format, path, start) {
    if (THREADS < 2) return null;
    const shared = new SharedArrayBuffer(RANGE_SIGNAL_BYTES);
    const signal = new Int32Array(shared);
    const partFrom = new Float64Array(shared);
    const boundary = new PartBoundary(signal, RANGE_BOUNDARY);
    // told now, or later (startAt): meanwhile the helper's `from` is the least it can be
    const later = typeof start !== 'number';
    const from = later ? start.notBefore : start;
    partFrom[RANGE_FROM_F64] = from;
    Atomics.store(signal, RANGE_FROM_STATE, later ? RANGE_FROM_UNTOLD : RANGE_FROM_TOLD);
    const tell = (state: number) => {
      // once: a part told where it starts is never cancelled back to waiting, nor told twice
      const before = Atomics.compareExchange(signal, RANGE_FROM_STATE, RANGE_FROM_UNTOLD, state);
      if (before === RANGE_FROM_UNTOLD) Atomics.notify(signal, RANGE_FROM_STATE);
    };
    // the pieces sent ahead (PartHelper.send) not taken yet, in order, then the part or an error
    const pieces: unknown[] = [];
    let last: { part?: unknown; error?: string } | undefined;
    const receive = () => {
      while (last === undefined) {
        const message = receiveMessageOnPort(port1)?.message as
          { piece?: unknown; part?: unknown; error?: string } | undefined;
        if (message === undefined) return;
        if (message.piece !== undefined) pieces.push(message.piece);
        else last = message;
      }
    };
    boundary.reset();
    const { port1, port2 } = new MessageChannel();
    startMark('helper-asked');
    let worker: ReturnType<typeof createRangeWorker>;
    try {
      worker = createRangeWorker({
        workerData: { format, path, from, port: port2, signal },
        transferList: [port2],
        // a GPU rank's helper reads JSON as the file's thread does, with the same nursery
        resourceLimits: youngGenerationFor([path]),
      });
    } catch {
      port1.close();
      return null;
    }
    const stop = () => {
      tell(RANGE_FROM_CANCELLED);
      void worker.terminate();
      port1.close();
    };
    return {
      wait(onTick) {
        let seen = -1;
        let seenState = RANGE_RUNNING;
        let since = Date.now();
        try {
          for (;;) {
            const state = Atomics.load(signal, RANGE_STATE);
            if (state !== RANGE_RUNNING && state !== RANGE_POSTING) break;
            Atomics.wait(signal, RANGE_STATE, state, TICK_MS);
            const kilobytes = Atomics.load(signal, RANGE_BYTES);
            if (kilobytes !== seen || state !== seenState) {
              seen = kilobytes;
              seenState = state;
              since = Date.now();
            } else if (Date.now() - since > (state === RANGE_POSTING ? POSTING_MS : STALL_MS))
              return null;
            onTick(kilobytes * 1024);
          }
          if (Atomics.load(signal, RANGE_STATE) !== RANGE_DONE) return null;
          receive();
          return last?.part ?? null;
        } finally {
          stop();
        }
      },
      bytesRead: () => Atomics.load(signal, RANGE_BYTES) * 1024,
      pieces: () => {
        receive();
        return pieces.splice(0);
      },
      cancel: stop,
      startAt(at) {
        if (Atomics.load(signal, RANGE_FROM_STATE) !== RANGE_FROM_UNTOLD) return;
        // written before the state that tells it (the helper reads it after seeing that state)
        partFrom[RANGE_FROM_F64] = Math.max(at, from);
        tell(RANGE_FROM_TOLD);
      },
      boundary,
    };
  },
};
