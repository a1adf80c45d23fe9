import type { CompareResult } from '../api/trace-api';
import type { RowDigestColumns } from './row-digest-columns';
import { textsOf } from './text-column';

/** One matched pair as `compare --json` has always listed it. */
export interface MatchedPairObject {
  aRowId: number;
  bRowId: number;
  /** `index <A's sample index>` or `group and prompt` */
  key: string;
}

/**
 * The matched pairs as a list of objects in A's order, each with what matched it: the CLI's
 * JSON (the answer itself carries the pairs as columns, see MatchedPairs).
 */
export function matchedPairList(
  result: Pick<CompareResult, 'matched' | 'matchedBy'>,
  rowsA: RowDigestColumns,
): MatchedPairObject[] {
  const indexKeys = textsOf(rowsA.indexKeys);
  const atOf = new Map<number, number>();
  rowsA.rowIds.forEach((rowId, at) => atOf.set(rowId, at));
  const { aRowIds, bRowIds } = result.matched;
  return Array.from(aRowIds, (aRowId, k) => ({
    aRowId,
    bRowId: bRowIds[k],
    key:
      result.matchedBy === 'index' ? `index ${indexKeys[atOf.get(aRowId)!]}` : 'group and prompt',
  }));
}
