import { describe, expect, it } from 'vitest';
import { nestByTime, nestColumns } from '../../../src-main/core/rows/nest-by-time';
import { packBlocks } from '../../../src-main/core/rows/pack-blocks';

describe('nestByTime', () => {
  it('nests by containment in any input order; adjacent intervals are siblings', () => {
    const { depth, parent } = nestByTime([
      { start: 5, end: 6 }, // 0: inside 2 inside 1
      { start: 0, end: 10 }, // 1: root
      { start: 4, end: 8 }, // 2: inside 1
      { start: 10, end: 12 }, // 3: starts where 1 ends: a root
      { start: 0, end: 10 }, // 4: same as 1: inside it (written later)
      { start: 11, end: null }, // 5: never ended, inside 3
    ]);
    expect(Array.from(depth)).toEqual([3, 0, 2, 0, 1, 1]);
    expect(Array.from(parent)).toEqual([2, -1, 4, -1, 1, 3]);
  });

  it('an interval that starts inside and ends after its parent still nests in it', () => {
    const { depth } = nestByTime([
      { start: 0, end: 10 },
      { start: 9, end: 11 },
    ]);
    expect(Array.from(depth)).toEqual([0, 1]);
  });

  it('at one start the longer interval is the parent, whichever is listed first', () => {
    const { depth, parent } = nestByTime([
      { start: 0, end: 5 },
      { start: 0, end: 10 },
    ]);
    expect(Array.from(depth)).toEqual([1, 0]);
    expect(Array.from(parent)).toEqual([1, -1]);
  });

  it('zero-length intervals: one at another’s start nests in it, one at its end does not', () => {
    const { depth, parent } = nestByTime([
      { start: 5, end: 5 }, // 0
      { start: 5, end: 5 }, // 1: same instant, listed later: inside 0
      { start: 10, end: 20 }, // 2
      { start: 20, end: 20 }, // 3: where 2 ends: a root
    ]);
    expect(Array.from(depth)).toEqual([0, 1, 0, 0]);
    expect(Array.from(parent)).toEqual([-1, 0, -1, -1]);
  });
});

describe('packBlocks', () => {
  it('places each block in the lowest run of free lanes at its start', () => {
    const { firstLane, laneCount } = packBlocks([
      { start: 0, end: 10, height: 1 }, // lane 0
      { start: 5, end: 20, height: 2 }, // lanes 1-2
      { start: 10, end: 15, height: 1 }, // lane 0 is free again at 10
      { start: 12, end: 13, height: 2 }, // 0 busy, 1-2 busy: lanes 3-4
      { start: 20, end: 30, height: 3 }, // all free at 20 but lane 0 ends at 15: 0-2
    ]);
    expect(Array.from(firstLane)).toEqual([0, 1, 0, 3, 0]);
    expect(laneCount).toBe(5);
  });

  it('places blocks in start order whatever the input order, ties in input order', () => {
    const { firstLane, laneCount } = packBlocks([
      { start: 10, end: 15, height: 1 }, // 0: lane 0 is free again at 10 (block 1 ended)
      { start: 0, end: 10, height: 1 }, // 1: first by start: lane 0
      { start: 5, end: 20, height: 1 }, // 2: lane 1
      { start: 30, end: 35, height: 2 }, // 3: before 4 at the same start: lanes 0-1
      { start: 30, end: 35, height: 1 }, // 4: lane 2
      { start: 40, end: 41, height: 0 }, // 5: a block takes at least one lane
      { start: 40, end: 41, height: 1 }, // 6: so this one goes below it
    ]);
    expect(Array.from(firstLane)).toEqual([0, 0, 1, 0, 2, 0, 1]);
    expect(laneCount).toBe(3);
  });

  it('no blocks: no lanes', () => {
    expect(packBlocks([]).laneCount).toBe(0);
  });
});

describe('nestColumns (nestByTime on typed columns)', () => {
  it('gives the same nesting for intervals in order (no sort) and shuffled (sorted)', () => {
    // a profiler thread's shape: steps, ops inside, launches inside those, ties at a start,
    // one never ended; built in start order, longer first at one start
    const inOrder: { start: number; end: number | null }[] = [];
    let t = 0;
    for (let step = 0; step < 20; step++) {
      inOrder.push({ start: t, end: t + 100 });
      for (let op = 0; op < 4; op++) {
        const s = t + op * 20;
        inOrder.push(
          { start: s, end: s + 15 },
          { start: s, end: s + 10 },
          { start: s + 2, end: s + 5 },
        );
      }
      t += 100;
    }
    inOrder.push({ start: t, end: null }, { start: t + 1, end: t + 2 });
    const columns = (list: typeof inOrder) => {
      const starts = Float64Array.from(list, (i) => i.start);
      const ends = Float64Array.from(list, (i) => i.end ?? Infinity);
      return nestColumns(starts, ends);
    };
    const direct = columns(inOrder);
    expect(Array.from(direct.depth)).toEqual(Array.from(nestByTime(inOrder).depth));
    expect(Math.max(...direct.depth)).toBe(3);
    // the same intervals shuffled: each keeps its depth, and its parent is the same interval
    const perm = inOrder.map((_, i) => i).sort((a, b) => ((a * 7919) % 97) - ((b * 7919) % 97));
    const shuffled = columns(perm.map((i) => inOrder[i]));
    perm.forEach((from, k) => {
      expect(shuffled.depth[k]).toBe(direct.depth[from]);
      const parent = shuffled.parent[k];
      expect(parent < 0 ? -1 : perm[parent]).toBe(direct.parent[from]);
    });
  });
});
