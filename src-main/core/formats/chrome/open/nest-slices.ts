import { nestColumns } from '../../../rows/nest-by-time';
import type { ChromeSlice } from '../chrome-trace';

/**
 * Depth and parent of each slice on one thread or async track, by time containment. Their
 * times go to nesting as columns, not as an object per slice (a GPU rank's 150k of them).
 */
export function nestSlices(slices: ChromeSlice[]): void {
  const n = slices.length;
  const starts = new Float64Array(n);
  const ends = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    starts[i] = slices[i].startUs;
    ends[i] = slices[i].endUs ?? Infinity;
  }
  const { depth, parent } = nestColumns(starts, ends);
  for (let i = 0; i < n; i++) {
    slices[i].depth = depth[i];
    slices[i].parent = parent[i] < 0 ? null : slices[parent[i]];
  }
}
