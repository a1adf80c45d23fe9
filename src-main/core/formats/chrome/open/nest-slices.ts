import { nestColumns } from '../../../rows/nest-by-time';
import type { ChromeSlice } from '../chrome-trace';

/**
 * Depth and parent of each slice on one thread or async track, by time containment. Their
 * times go to nesting as columns, not as an object per slice (a GPU rank's 150k of them).
 */
export function nestSlices(slices: ChromeSlice[]): void {
  const n = slices.length;
  // a track of one slice (most of 300,000 tiny processes' threads) needs no nesting
  if (n <= 1) {
    if (n === 1) {
      slices[0].depth = 0;
      slices[0].parent = null;
    }
    return;
  }
  // the times in buffers kept from track to track (two typed arrays per track were 600,000
  // for 300,000 tiny processes)
  if (startsBuffer.length < n) {
    startsBuffer = new Float64Array(n);
    endsBuffer = new Float64Array(n);
  }
  const starts = startsBuffer;
  const ends = endsBuffer;
  for (let i = 0; i < n; i++) {
    starts[i] = slices[i].startUs;
    ends[i] = slices[i].endUs ?? Infinity;
  }
  const { depth, parent } = nestColumns(starts, ends, n);
  for (let i = 0; i < n; i++) {
    slices[i].depth = depth[i];
    slices[i].parent = parent[i] < 0 ? null : slices[parent[i]];
  }
}

let startsBuffer = new Float64Array(64);
let endsBuffer = new Float64Array(64);
