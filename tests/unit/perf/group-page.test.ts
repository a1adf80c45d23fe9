import { describe, expect, it } from 'vitest';
import { groupPage, groupsByRowFigure, sortedGroups } from '../../../src-main/core/open/group-page';
import { GROUP_SORTS } from '../../../src-main/core/api/sort-keys';
import type { GroupRowFigure } from '../../../src-main/core/api/trace-api';
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
  group(0, 10, 5, 0.5, 0.5, 2), // wall / median 2 (2 samples, as every group but 2)
  group(1, 30, 30, null, null), // no rewards: last by reward, 1x
  { ...group(2, 20, 4, 1, 0), rowIds: [4, 5, 8] }, // zero variance, 5x, 3 samples
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
    expect(indexes(sortedGroups(GROUPS, 'samples', 'all'))).toEqual([2, 0, 1, 3]);
    expect(indexes(sortedGroups(GROUPS, 'median-sample', 'all'))).toEqual([1, 0, 2, 3]);
  });

  it('reversed (a header clicked again) is the same list backwards, ties too', () => {
    for (const { key } of GROUP_SORTS) {
      const forward = sortedGroups(GROUPS, key, 'all');
      expect(sortedGroups(GROUPS, key, 'all', true)).toEqual(forward.slice().reverse());
    }
    const page = groupPage(GROUPS, {
      sort: 'wall',
      filter: 'all',
      offset: 0,
      limit: 2,
      reverse: true,
    });
    expect(indexes(page.groups)).toEqual([3, 0]);
  });

  it('filters to zero-variance or resumed groups', () => {
    expect(indexes(sortedGroups(GROUPS, 'group', 'zero-variance'))).toEqual([2]);
    expect(indexes(sortedGroups(GROUPS, 'wall', 'resumed'))).toEqual([0]);
  });

  it('keeps each order: asking again is the same list', () => {
    expect(sortedGroups(GROUPS, 'wall', 'all')).toBe(sortedGroups(GROUPS, 'wall', 'all'));
  });
});

describe('groups by a figure the renderer sends per row', () => {
  // rows 0-1: group 0, 2-3: group 1, 4, 5, 8: group 2, 6-7: group 3
  const figure = (
    combine: GroupRowFigure['combine'],
    parts: [row: number, value: number, weight: number][],
  ): GroupRowFigure => ({
    combine,
    rowIds: parts.map((p) => p[0]),
    values: parts.map((p) => p[1]),
    weights: parts.map((p) => p[2]),
  });

  it("combines each group's rows: a ratio of sums, largest first; groups without any last", () => {
    // group 0: (1 + 3) / (10 + 10) = 0.2; group 2: 9 / 30 = 0.3; group 3: 2 / 40 = 0.05; group 1 none
    const ratio = figure('ratio', [
      [0, 1, 10],
      [1, 3, 10],
      [4, 3, 10],
      [8, 6, 20],
      [7, 2, 40],
    ]);
    expect(indexes(groupsByRowFigure(GROUPS, ratio))).toEqual([2, 0, 3, 1]);
    // reversed: smallest first, the group without a figure still last
    expect(indexes(groupsByRowFigure(GROUPS, ratio, true))).toEqual([3, 0, 2, 1]);
  });

  it('sums or takes the largest; ties keep position; a weight of 0 gives no ratio', () => {
    const parts: [number, number, number][] = [
      [0, 5, 1],
      [1, 1, 1],
      [2, 6, 1],
      [6, 2, 1],
      [7, 4, 1],
    ];
    // sums 6, 6, -, 6: a three-way tie in position order
    expect(indexes(groupsByRowFigure(GROUPS, figure('sum', parts)))).toEqual([0, 1, 3, 2]);
    // largest 5, 6, -, 4
    expect(indexes(groupsByRowFigure(GROUPS, figure('max', parts)))).toEqual([1, 0, 3, 2]);
    expect(indexes(groupsByRowFigure(GROUPS, figure('ratio', [[0, 1, 0]])))).toEqual([0, 1, 2, 3]);
  });

  it('pages through the filtered groups in that order', () => {
    const rowFigure = figure('max', [
      [0, 1, 1],
      [5, 9, 1],
      [7, 3, 1],
    ]);
    const page = groupPage(GROUPS, {
      sort: 'group',
      filter: 'all',
      offset: 1,
      limit: 2,
      rowFigure,
    });
    expect(indexes(page.groups)).toEqual([3, 0]);
    expect(page.shown).toBe(4);
    const zero = groupPage(GROUPS, {
      sort: 'group',
      filter: 'zero-variance',
      offset: 0,
      limit: 10,
      rowFigure,
    });
    expect(indexes(zero.groups)).toEqual([2]);
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
