import { useMemo } from 'react';
import type { HitBox } from './draw-timeline';

/**
 * The item under the pointer as the drawing wants it: the same object while the pointer stays
 * on one item, so moving over a bar redraws only when it reaches another.
 */
export function useHovered(hit: HitBox | null): { rowId: number; index: number } | null {
  const rowId = hit?.rowId ?? null;
  const index = hit?.index ?? null;
  return useMemo(
    () => (rowId === null || index === null ? null : { rowId, index }),
    [rowId, index],
  );
}
