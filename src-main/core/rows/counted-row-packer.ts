import type { PackedRow, RowItem, RowOwnField } from '../model/row';
import { RowCounter } from './build-rows';
import { ItemPacker } from './packed-items';

/**
 * A row's items packed one at a time and counted as they go (extent and counts, as rowCounts
 * gives): for a format that makes each item in the row's order and packs it at once, so that a
 * row of a million items is never an array of objects. One packer per file: its rows share
 * their items' shapes.
 */
export function countedRowPacker(): {
  begin(count: number): void;
  add(item: RowItem): void;
  end(): Omit<PackedRow, RowOwnField>;
} {
  const packer = new ItemPacker();
  let counter = new RowCounter();
  return {
    begin(count) {
      counter = new RowCounter();
      packer.begin(count);
    },
    add(item) {
      counter.add(item);
      packer.add(item);
    },
    end: () => ({ ...counter.counts(), packed: packer.end() }),
  };
}
