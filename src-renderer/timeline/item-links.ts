import type { ItemView } from '../../src-main/core/api/trace-api';
import { itemIn } from './row-items';

/**
 * The spans of a row an item is linked with: those it links from (a kernel's launch, Kineto's
 * ac2g flow) and those linking from it (a launch's kernels). What the tooltip names beside the
 * arrows drawn for the hovered item.
 */
export function linkedItems(
  items: readonly ItemView[],
  item: ItemView,
): { from: ItemView[]; to: ItemView[] } {
  // by index, not place: a big row sends only some of its items (RowView.detail)
  const from = (item.links ?? []).map((i) => itemIn(items, i)).filter((i) => i !== undefined);
  const to = items.filter((other) => other.links?.includes(item.index) === true);
  return { from, to };
}
