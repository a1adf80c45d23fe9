import type { PartRowProducts } from '../core/bytes/part-reader';
import type { PackedRow } from '../core/model/row';
import { searchTextRun } from '../core/rows/row-search-text';

/**
 * The makers of what a file's thread can ask a helper to make of the rows it reads
 * (FormatPartReader.start's `madeOfRows`), each run on the helper over a batch of its rows.
 */
const MAKERS: Record<PartRowProducts, (rows: readonly PackedRow[]) => unknown> = {
  'search-texts': searchTextRun,
};

/** PartHelper.madeOfRows for what was asked, or undefined when nothing was. */
export function partRowsMaker(
  asked: PartRowProducts | null | undefined,
): ((rows: readonly unknown[]) => unknown) | undefined {
  if (!asked) return undefined;
  const make = MAKERS[asked];
  return (rows) => make(rows as readonly PackedRow[]);
}
