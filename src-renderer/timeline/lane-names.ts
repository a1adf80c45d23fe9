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
  return names;
}
