import type { RowOrder } from '../../src-main/core/api/trace-api';

/** Samples not started, running and finished at time t (seconds from the file start). */
export function cursorCounts(
  order: RowOrder,
  t: number,
): { notStarted: number; running: number; finished: number } {
  let notStarted = 0;
  let running = 0;
  let finished = 0;
  for (let i = 0; i < order.rowIds.length; i++) {
    if (order.startSec[i] > t) notStarted++;
    else if (order.endSec[i] < t) finished++;
    else running++;
  }
  return { notStarted, running, finished };
}
