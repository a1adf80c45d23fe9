import { describe, expect, it } from 'vitest';
import { keyZoomFactor, zoomWindow } from '../../../src-renderer/timeline/time-window';
import { steppedItem } from '../../../src-renderer/timeline/item-steps';
import type { ItemView } from '../../../src-main/core/api/trace-api';

describe('W/S zoom while held', () => {
  it('a press zooms 1.25x; held, each repeat zooms more, up to a cap; S undoes W', () => {
    expect(keyZoomFactor(true, 0)).toBeCloseTo(0.8);
    expect(keyZoomFactor(false, 0)).toBeCloseTo(1.25);
    for (let r = 1; r < 30; r++) {
      expect(keyZoomFactor(true, r)).toBeLessThanOrEqual(keyZoomFactor(true, r - 1));
      expect(keyZoomFactor(true, r) * keyZoomFactor(false, r)).toBeCloseTo(1);
    }
    expect(keyZoomFactor(true, 100)).toBeCloseTo(0.8 ** 4);
  });

  it('reaches a 10 ms span of an 88 s run in a second of key repeats at the pointer', () => {
    // the run fixture's axis is 0-88 s; a key repeats about 30 times a second
    let w = { startSec: 0, endSec: 88 };
    const target = 31.234;
    let repeats = 0;
    while (w.endSec - w.startSec > 0.01) {
      const frac = (target - w.startSec) / (w.endSec - w.startSec);
      w = zoomWindow(w, keyZoomFactor(true, repeats), frac);
      repeats++;
    }
    expect(repeats).toBeLessThan(30);
    // the time under the pointer stayed there
    expect(w.startSec).toBeLessThanOrEqual(target);
    expect(w.endSec).toBeGreaterThanOrEqual(target);
  });
});

describe('left/right between the items of a row', () => {
  const item = (index: number, name: string, startSec: number, lane = 0): ItemView => ({
    index,
    kind: 'span',
    name,
    startSec,
    endSec: startSec + 1,
    lane,
    depth: 0,
    ongoing: false,
    parentIndex: -1,
  });
  const items = [item(0, 'a', 5), item(1, 'b', 1), item(2, 'c', 3, 1), item(3, 'd', 3, 0)];
  it('steps in time order (then lane), from none to the first or last, stops at the ends', () => {
    expect(steppedItem(items, null, 1)).toBe(1);
    expect(steppedItem(items, null, -1)).toBe(0);
    expect(steppedItem(items, 1, 1)).toBe(3);
    expect(steppedItem(items, 3, 1)).toBe(2);
    expect(steppedItem(items, 2, 1)).toBe(0);
    expect(steppedItem(items, 0, 1)).toBe(0);
    expect(steppedItem(items, 1, -1)).toBe(1);
  });
  it('skips names the legend hides; nothing to step to is null', () => {
    expect(steppedItem(items, 1, 1, new Set(['d']))).toBe(2);
    expect(steppedItem([], null, 1)).toBeNull();
  });
});
