import { describe, expect, it } from 'vitest';
import { groupPage, sortedGroups } from '../../../src-main/core/open/group-page';
import type { GroupFigures } from '../../../src-main/core/model/rollout-figures';

// The groups view's pages, sorted and filtered in the worker: hand-built groups, every figure
// written out so each expected order can be read off the test.
const group = (
  groupIndex: number,
  wallSec: number,
  medianSampleSec: number,
  rewardMean: number | null,
  rewardStd: number | null,
  resumedSamples = 0,
): GroupFigures => ({
  groupIndex,
  rowIds: [groupIndex * 2, groupIndex * 2 + 1],
  startSec: 0,
  endSec: wallSec,
  wallSec,
  slowestRowId: groupIndex * 2,
  slowestEndSec: wallSec,
  medianSampleSec,
  rewardMean,
  rewardStd,
  zeroVariance: rewardStd === 0,
  resumedSamples,
});

const GROUPS = [
  group(0, 10, 5, 0.5, 0.5, 2), // wall / median 2
  group(1, 30, 30, null, null), // no rewards: last by reward, 1x
  group(2, 20, 4, 1, 0), // zero variance, 5x
  group(3, 5, 0, 0.25, 0.1), // no median: 1x
];
const indexes = (groups: GroupFigures[]) => groups.map((g) => g.groupIndex);

describe('the groups view’s order', () => {
  it('sorts each way, ties and missing values by position', () => {
    expect(indexes(sortedGroups(GROUPS, 'group', 'all'))).toEqual([0, 1, 2, 3]);
    expect(indexes(sortedGroups(GROUPS, 'wall', 'all'))).toEqual([1, 2, 0, 3]);
    expect(indexes(sortedGroups(GROUPS, 'wall-vs-median', 'all'))).toEqual([2, 0, 1, 3]);
    expect(indexes(sortedGroups(GROUPS, 'reward-mean', 'all'))).toEqual([2, 0, 3, 1]);
    expect(indexes(sortedGroups(GROUPS, 'reward-std', 'all'))).toEqual([2, 3, 0, 1]);
  });

  it('filters to zero-variance or resumed groups', () => {
    expect(indexes(sortedGroups(GROUPS, 'group', 'zero-variance'))).toEqual([2]);
    expect(indexes(sortedGroups(GROUPS, 'wall', 'resumed'))).toEqual([0]);
  });

  it('keeps each order: asking again is the same list', () => {
    expect(sortedGroups(GROUPS, 'wall', 'all')).toBe(sortedGroups(GROUPS, 'wall', 'all'));
  });
});

describe('a page of groups', () => {
  it('is the slice at offset, with the counts of the whole', () => {
    const page = groupPage(GROUPS, { sort: 'wall', filter: 'all', offset: 1, limit: 2 });
    expect(indexes(page.groups)).toEqual([2, 0]);
    expect(page).toMatchObject({ offset: 1, shown: 4, total: 4, zeroVariance: 1 });
    const filtered = groupPage(GROUPS, { sort: 'group', filter: 'resumed', offset: 0, limit: 10 });
    expect(indexes(filtered.groups)).toEqual([0]);
    expect(filtered).toMatchObject({ shown: 1, total: 4, zeroVariance: 1 });
    expect(
      groupPage(GROUPS, { sort: 'group', filter: 'all', offset: 4, limit: 10 }).groups,
    ).toEqual([]);
  });
});
