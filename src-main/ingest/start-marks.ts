/**
 * Where the time to a file's first rows goes (`npm run bench firstrows`): with
 * TRACE_EXPLORER_MARKS=1 each step prints `MARK <step> <epoch ms>` on stderr, from whichever
 * thread reaches it (fd 2, shared by the threads). Epoch milliseconds, so the
 * bench lines them up with its own clock and the page's. Off, a mark costs one comparison.
 */
import { writeSync } from 'node:fs';

const marking = process.env.TRACE_EXPLORER_MARKS === '1';

/** The step `step` is reached now (or was at `at`, epoch ms: a thread's start). */
export function startMark(step: string, at = performance.timeOrigin + performance.now()): void {
  // written at once: a worker's process.stderr reaches the file only when its thread is idle,
  // and a worker reading a file is not
  if (marking) writeSync(2, `MARK ${step} ${at.toFixed(1)}\n`);
}
