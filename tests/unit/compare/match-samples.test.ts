import { describe, expect, it } from 'vitest';
import { matchRows } from '../../../src-main/core/compare/match-samples';
import {
  rowDigestColumns,
  type RowDigest,
} from '../../../src-main/core/compare/row-digest-columns';
import { matchedPairList } from '../../../src-main/core/compare/matched-pair-list';

/** matchRows on the rows as columns, its pairs listed as the CLI's JSON lists them */
function match(rowsA: RowDigest[], rowsB: RowDigest[]) {
  const a = rowDigestColumns(rowsA);
  const b = rowDigestColumns(rowsB);
  const m = matchRows(a, b);
  const matched = {
    aRowIds: m.aAt.map((at) => a.rowIds[at]),
    bRowIds: m.bAt.map((at) => b.rowIds[at]),
    byDurationChange: new Int32Array(),
  };
  return {
    matched: matchedPairList({ matched, matchedBy: m.matchedBy }, a),
    matchedBy: m.matchedBy,
    onlyA: Array.from(m.onlyA),
    onlyB: Array.from(m.onlyB),
  };
}

/**
 * The matching rule's edges (core/compare/match-samples.ts, issue 17), on rows made by hand: by
 * index only when at least one index pair exists and every one has the same group and prompt.
 */
const row = (
  row_id: number,
  sample_index: RowDigest['sample_index'],
  promptKey: string | null,
): RowDigest => ({
  row_id,
  sample_index,
  status: 'completed',
  reward: null,
  response_length: null,
  duration: 1,
  promptKey,
});

describe('matching samples', () => {
  it('no index on either side: no index pair, so by group and prompt', () => {
    expect(match([row(0, null, 'p')], [row(5, null, 'p')])).toEqual({
      matched: [{ aRowId: 0, bRowId: 5, key: 'group and prompt' }],
      matchedBy: 'group and prompt',
      onlyA: [],
      onlyB: [],
    });
  });

  it('two B rows with one index: the first is the one an index pairs with', () => {
    // the first B row with index 0 has A's prompt: matched by index, the second left over
    expect(match([row(0, 0, 'p')], [row(0, 0, 'p'), row(1, 0, 'x')])).toEqual({
      matched: [{ aRowId: 0, bRowId: 0, key: 'index 0' }],
      matchedBy: 'index',
      onlyA: [],
      onlyB: [1],
    });
    // the first B row with index 0 has another prompt: not by index, although the second agrees
    expect(match([row(0, 0, 'p')], [row(0, 0, 'x'), row(1, 0, 'p')])).toEqual({
      matched: [{ aRowId: 0, bRowId: 1, key: 'group and prompt' }],
      matchedBy: 'group and prompt',
      onlyA: [],
      onlyB: [0],
    });
  });

  it('index matching pairs rows by index, not by position, and keeps A’s order', () => {
    expect(match([row(0, 2, 'q'), row(1, 1, 'p')], [row(7, 1, 'p'), row(8, 2, 'q')])).toEqual({
      matched: [
        { aRowId: 0, bRowId: 8, key: 'index 2' },
        { aRowId: 1, bRowId: 7, key: 'index 1' },
      ],
      matchedBy: 'index',
      onlyA: [],
      onlyB: [],
    });
  });

  it('by prompt, two B rows with A’s prompt serve two A rows in turn; a null prompt never matches', () => {
    expect(
      match(
        [row(0, 0, 'p'), row(1, 1, 'p'), row(2, 2, null)],
        [row(0, 0, 'x'), row(1, 5, 'p'), row(2, 6, 'p'), row(3, 7, null)],
      ),
    ).toEqual({
      matched: [
        { aRowId: 0, bRowId: 1, key: 'group and prompt' },
        { aRowId: 1, bRowId: 2, key: 'group and prompt' },
      ],
      matchedBy: 'group and prompt',
      onlyA: [2],
      onlyB: [0, 3],
    });
  });

  it('a boolean index is no index; a float index is one', () => {
    expect(match([row(0, true as never, 'p')], [row(0, true as never, 'p')]).matchedBy).toBe(
      'group and prompt',
    );
    expect(match([row(0, 1.5, 'p')], [row(0, 1.5, 'p')]).matched).toEqual([
      { aRowId: 0, bRowId: 0, key: 'index 1.5' },
    ]);
  });

  it('an index is its text: 3 and "3" are one index, "03" and "3.0" others', () => {
    expect(
      match([row(0, 3, 'p'), row(1, '03', 'q')], [row(0, '3', 'p'), row(1, 3.0, 'r')]),
    ).toEqual({
      // A's 3 pairs with B's "3" (B's first row of that index); "03" has no partner
      matched: [{ aRowId: 0, bRowId: 0, key: 'index 3' }],
      matchedBy: 'index',
      onlyA: [1],
      onlyB: [1],
    });
    expect(match([row(0, '3.0', 'p')], [row(0, 3, 'p')]).matchedBy).toBe('group and prompt');
    expect(match([row(0, '1e+21', 'p')], [row(0, 1e21, 'p')]).matchedBy).toBe('index');
  });

  it('two A rows with one index both pair with B’s row of it', () => {
    expect(match([row(0, 4, 'p'), row(1, 4, 'p')], [row(9, 4, 'p')])).toEqual({
      matched: [
        { aRowId: 0, bRowId: 9, key: 'index 4' },
        { aRowId: 1, bRowId: 9, key: 'index 4' },
      ],
      matchedBy: 'index',
      onlyA: [],
      onlyB: [],
    });
  });
});
