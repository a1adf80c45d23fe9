import { elementPng, shownBackground } from '../picture/element-picture';

/**
 * The result table's PNG: the table as shown (scrolled where it is), cut to its columns and
 * rows where they do not fill the box, so a three-row answer is not a screenful of blank.
 */
export function resultTablePng(box: HTMLElement): Promise<Blob> {
  const rect = box.getBoundingClientRect();
  let right = rect.left;
  let bottom = rect.top;
  for (const cell of Array.from(box.querySelectorAll('.sql-result-head > .sql-cell'))) {
    const r = cell.getBoundingClientRect();
    right = Math.max(right, r.right);
    bottom = Math.max(bottom, r.bottom);
  }
  for (const row of Array.from(box.querySelectorAll('.sql-result-row')))
    bottom = Math.max(bottom, row.getBoundingClientRect().bottom);
  // the box's own border closes the picture on the right and at the bottom
  const size = {
    width: Math.min(rect.width, Math.ceil(right - rect.left) + box.clientLeft),
    height: Math.min(rect.height, Math.ceil(bottom - rect.top) + box.clientTop),
  };
  return elementPng(box, shownBackground(box), size);
}
