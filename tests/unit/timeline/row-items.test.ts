import { describe, expect, it } from 'vitest';
import type { ItemView, RowView } from '../../../src-main/core/api/trace-api';
import { itemAt, itemCountOf } from '../../../src-renderer/timeline/row-items';
import { linkedItems } from '../../../src-renderer/timeline/item-links';
import { windowCovered } from '../../../src-renderer/host/row-window';
import { itemView, rowView } from './hand-views';

const item = (index: number): ItemView =>
  itemView({ index, name: `item ${index}`, startSec: index, endSec: index + 1 });
const rowOf = (indexes: number[], detail?: RowView['detail']): RowView => ({
  ...rowView(0, indexes.map(item), 1),
  ...(detail ? { detail } : {}),
});

describe("a row's items by index", () => {
  it('finds each item of a whole row at its place, and each one a big row sent', () => {
    const whole = rowOf([0, 1, 2, 3]);
    for (let k = 0; k < 4; k++) expect(itemAt(whole, k)).toBe(whole.items[k]);
    const sent = [0, 2, 3, 17, 40, 41, 99];
    const part = rowOf(sent, { startSec: 0, endSec: 100, resolutionSec: 1, itemCount: 100 });
    for (let index = 0; index < 100; index++)
      expect(itemAt(part, index)?.index).toBe(sent.includes(index) ? index : undefined);
    expect(itemCountOf(part)).toBe(100);
    expect(itemCountOf(whole)).toBe(4);
  });
});

describe("a big row's links", () => {
  it('name the launch a kernel links from by its index, not its place among those sent', () => {
    const part = rowOf([3, 8, 9, 20], {
      startSec: 0,
      endSec: 100,
      resolutionSec: 1,
      itemCount: 40,
    });
    const kernel = { ...part.items[2], links: [8, 12] };
    part.items[2] = kernel;
    const linked = linkedItems(part.items, kernel);
    // 12 was not sent: nothing is named for it
    expect(linked.from.map((i) => i.index)).toEqual([8]);
    expect(linkedItems(part.items, part.items[1]).to).toEqual([kernel]);
  });
});

describe('whether a big row sent for one window draws another', () => {
  const detail = { startSec: 0, endSec: 30, resolutionSec: 0.01, itemCount: 1e6 };
  it('holds within what was sent, at about its resolution', () => {
    expect(windowCovered(detail, { startSec: 10, endSec: 20, pixels: 1000 })).toBe(true);
    // a pan past what was sent, a zoom in, a zoom far out: asked again
    expect(windowCovered(detail, { startSec: 25, endSec: 35, pixels: 1000 })).toBe(false);
    expect(windowCovered(detail, { startSec: 10, endSec: 12, pixels: 1000 })).toBe(false);
    expect(windowCovered(detail, { startSec: 10, endSec: 14, pixels: 250 })).toBe(true);
    expect(windowCovered(detail, { startSec: 0, endSec: 30, pixels: 500 })).toBe(false);
  });
});
