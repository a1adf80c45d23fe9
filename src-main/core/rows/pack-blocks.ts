/** A block of lanes to place: it needs `height` adjacent lanes free over [start, end]. */
export interface LaneBlock {
  start: number;
  end: number;
  height: number;
}

/**
 * Greedy packing of blocks into as few lanes as it finds: in start order, each block takes the
 * lowest run of `height` lanes that are all free at its start (a lane is free once the last
 * block in it has ended). Used for tracks that are many and short (async ids), so that each
 * does not cost a lane of its own. `firstLane[i]` is block i's top lane.
 */
export function packBlocks(blocks: readonly LaneBlock[]): {
  firstLane: Int32Array;
  laneCount: number;
} {
  const order = Array.from({ length: blocks.length }, (_, i) => i).sort(
    (a, b) => blocks[a].start - blocks[b].start || a - b,
  );
  const laneEnds: number[] = [];
  const firstLane = new Int32Array(blocks.length);
  for (const i of order) {
    const { start, end } = blocks[i];
    const height = Math.max(1, blocks[i].height);
    let lane = 0;
    for (;;) {
      let free = true;
      for (let k = lane; k < lane + height; k++) {
        if (k < laneEnds.length && laneEnds[k] > start) {
          free = false;
          lane = k + 1;
          break;
        }
      }
      if (free) break;
    }
    for (let k = lane; k < lane + height; k++) {
      while (laneEnds.length <= k) laneEnds.push(-Infinity);
      laneEnds[k] = end;
    }
    firstLane[i] = lane;
  }
  return { firstLane, laneCount: laneEnds.length };
}
