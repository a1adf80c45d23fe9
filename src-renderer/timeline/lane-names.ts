import type { RowView } from '../../src-main/core/api/trace-api';

/**
 * A name per lane of an expanded row, from what the back end gives: the lane label its items
 * carry (an SGLang thread with its ranks, a ROLL service instance), else the name of the
 * lane's first span (slime: `[P]`, `[D]`, the generate call, ...), else its first event.
 */
export function laneNames(row: RowView): string[] {
  const names: string[] = Array.from({ length: Math.max(1, row.laneCount) }, () => '');
  const firstStart: number[] = names.map(() => Infinity);
  for (const item of row.items) {
    if (item.lane < 0 || item.lane >= names.length) continue;
    if (item.laneLabel) {
      // the first lane label of a lane beats any span name
      if (firstStart[item.lane] !== -Infinity) {
        names[item.lane] = item.laneLabel;
        firstStart[item.lane] = -Infinity;
      }
    } else if (item.kind === 'span' && item.startSec < firstStart[item.lane]) {
      names[item.lane] = item.name;
      firstStart[item.lane] = item.startSec;
    }
  }
  // a lane of instant events only (slime's sglang_pd_summary) is named by its first event
  for (const item of row.items) {
    if (item.lane >= 0 && item.lane < names.length && !names[item.lane])
      names[item.lane] = item.name;
  }
  return continuationsBlank(names);
}

/**
 * A thread whose slices nest takes one lane per depth, every one carrying the thread's label:
 * the name is shown on its first lane only, as Perfetto shows one track per thread (a profiler
 * trace's thread read "thread 4037 (python3.8)" on twelve lanes in a row).
 */
function continuationsBlank(names: string[]): string[] {
  for (let lane = names.length - 1; lane > 0; lane--)
    if (names[lane] && names[lane] === names[lane - 1]) names[lane] = '';
  return names;
}
