import type { ItemView } from '../../src-main/core/api/trace-api';
import { legendKeyOf } from './span-colours';

/**
 * The item `step` places before or after `current` in time order (start, then lane), skipping
 * hidden names; from no item, the first (step > 0) or the last. Null when the row has none.
 */
export function steppedItem(
  items: readonly ItemView[],
  current: number | null,
  step: number,
  hidden: ReadonlySet<string> = new Set(),
): number | null {
  const shown = items
    .filter((item) => !hidden.has(legendKeyOf(item)))
    .sort((a, b) => a.startSec - b.startSec || a.lane - b.lane || a.index - b.index);
  if (shown.length === 0) return null;
  const at = current === null ? -1 : shown.findIndex((item) => item.index === current);
  if (at < 0) return (step > 0 ? shown[0] : shown[shown.length - 1]).index;
  return shown[Math.max(0, Math.min(shown.length - 1, at + step))].index;
}
