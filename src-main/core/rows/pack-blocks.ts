import { LaneEnds } from './lane-ends';

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
  const lanes = new LaneEnds();
  const firstLane = new Int32Array(blocks.length);
  for (const i of order) {
    const { start, end } = blocks[i];
    const height = Math.max(1, blocks[i].height);
    // the lowest free lane, then whether the lanes below it are free too: if one is busy, the
    // next try starts past it
    let lane = lanes.firstFree(0, start);
    for (;;) {
      const busy = lanes.firstBusy(lane, start);
      if (busy >= lane + height) break;
      lane = lanes.firstFree(busy + 1, start);
    }
    for (let k = lane; k < lane + height; k++) lanes.set(k, end);
    firstLane[i] = lane;
  }
  return { firstLane, laneCount: lanes.count };
}
