import type { ItemView, RowView } from '../../src-main/core/api/trace-api';

/**
 * A row's item by its index (ItemView.index): at that place in `items` when the row was sent
 * whole, else found among the items sent (RowView.detail: a big row sends a window's, still in
 * index order). Undefined when it was not sent.
 */
export function itemAt(row: RowView, index: number): ItemView | undefined {
  return itemIn(row.items, index);
}

/** The item of this index among a row's items (in index order, all or some), if there. */
export function itemIn(items: readonly ItemView[], index: number): ItemView | undefined {
  const there = items[index];
  if (there?.index === index) return there;
  let lo = 0;
  let hi = Math.min(items.length, index) - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >>> 1;
    const at = items[mid].index;
    if (at === index) return items[mid];
    if (at < index) lo = mid + 1;
    else hi = mid - 1;
  }
  return undefined;
}

/** How many items the row holds, sent or not. */
export function itemCountOf(row: RowView): number {
  return row.detail?.itemCount ?? row.items.length;
}
