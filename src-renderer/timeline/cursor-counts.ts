import type { ShownOrder } from '../host/shown-order';
/** Samples not started, running and finished at time t (seconds from the file start). */
export function cursorCounts(
  order: Pick<ShownOrder, 'rowIds' | 'startSec' | 'endSec'>,
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
