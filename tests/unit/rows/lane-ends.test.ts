import { describe, expect, it } from 'vitest';
import { LaneEnds } from '../../../src-main/core/rows/lane-ends';
import { prng } from '../../support/prng';

describe('LaneEnds', () => {
  it('answers as a scan of the lanes does, over random sets and queries', () => {
    const random = prng(49);
    const lanes = new LaneEnds();
    const ends: number[] = [];
    for (let step = 0; step < 5000; step++) {
      const lane = Math.floor(random() * 70);
      const end = Math.floor(random() * 100);
      lanes.set(lane, end);
      while (ends.length <= lane) ends.push(-Infinity);
      ends[lane] = end;
      const from = Math.floor(random() * 80);
      const at = Math.floor(random() * 100);
      let free = from;
      while (free < ends.length && ends[free] > at) free++;
      let busy = from;
      while (busy < ends.length && ends[busy] <= at) busy++;
      expect(lanes.firstFree(from, at)).toBe(free);
      expect(lanes.firstBusy(from, at)).toBe(busy < ends.length ? busy : Infinity);
      expect(lanes.count).toBe(ends.length);
    }
  });

  it('lanes never set are free; a lane is free at the moment its bar ends', () => {
    const lanes = new LaneEnds();
    expect(lanes.firstFree(3, 0)).toBe(3);
    lanes.set(0, 5);
    lanes.set(1, 9);
    expect(lanes.firstFree(0, 4)).toBe(2);
    expect(lanes.firstFree(0, 5)).toBe(0);
    expect(lanes.firstBusy(0, 5)).toBe(1);
    expect(lanes.firstBusy(2, 0)).toBe(Infinity);
  });
});
