import { availableParallelism } from 'node:os';
import { MessageChannel, receiveMessageOnPort } from 'node:worker_threads';
import createRangeWorker from './range-worker?nodeWorker';
import type { RangeRead, RangeReader } from '../core/formats/otlp/read-otlp';
import { RANGE_BYTES, RANGE_DONE, RANGE_RUNNING, RANGE_SLOTS, RANGE_STATE } from './range-signal';

/** A helper that shows no progress for this long is given up on and its part read here. */
const STALL_MS = 10_000;
const TICK_MS = 50;

/**
 * Reads the second half of a large OTLP file on a second thread. The reader is synchronous
 * (one pipeline for the worker and the headless commands), so the file's thread blocks on a
 * shared signal (Atomics.wait) and takes the result with receiveMessageOnPort.
 */
export const workerRangeReader: RangeReader = {
  start(path, from) {
    // TRACE_EXPLORER_THREADS=1 keeps reading on one thread (a busy machine, a comparison)
    if (availableParallelism() < 2 || process.env.TRACE_EXPLORER_THREADS === '1') return null;
    const signal = new Int32Array(new SharedArrayBuffer(RANGE_SLOTS * 4));
    const { port1, port2 } = new MessageChannel();
    let worker: ReturnType<typeof createRangeWorker>;
    try {
      worker = createRangeWorker({
        workerData: { path, from, port: port2, signal },
        transferList: [port2],
      });
    } catch {
      port1.close();
      return null;
    }
    const stop = () => {
      void worker.terminate();
      port1.close();
    };
    return {
      wait(onTick) {
        let seen = -1;
        let since = Date.now();
        try {
          while (Atomics.load(signal, RANGE_STATE) === RANGE_RUNNING) {
            Atomics.wait(signal, RANGE_STATE, RANGE_RUNNING, TICK_MS);
            const kilobytes = Atomics.load(signal, RANGE_BYTES);
            if (kilobytes !== seen) {
              seen = kilobytes;
              since = Date.now();
            } else if (Date.now() - since > STALL_MS) return null;
            onTick(kilobytes * 1024);
          }
          const message = receiveMessageOnPort(port1)?.message as
            { read?: RangeRead; error?: string } | undefined;
          return Atomics.load(signal, RANGE_STATE) === RANGE_DONE && message?.read
            ? message.read
            : null;
        } finally {
          stop();
        }
      },
      bytesRead: () => Atomics.load(signal, RANGE_BYTES) * 1024,
      cancel: stop,
    };
  },
};
