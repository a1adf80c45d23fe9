import type { GroupFigures } from '../../src-main/core/model/rollout-figures';

export type GroupSort = 'group' | 'wall' | 'wall-vs-median' | 'reward-mean' | 'reward-std';
export type GroupFilter = 'all' | 'zero-variance' | 'resumed';

/** how much longer a group ran than its median sample: 1 = no straggler */
export function wallVsMedian(group: GroupFigures): number {
  return group.medianSampleSec > 0 ? group.wallSec / group.medianSampleSec : 1;
}

/** the groups to show, in order: slowest / most skewed / best rewarded first, ties by position */
export function groupRows(
  groups: GroupFigures[],
  sort: GroupSort,
  filter: GroupFilter,
): GroupFigures[] {
  const shown = groups.filter((g) =>
    filter === 'zero-variance'
      ? g.zeroVariance
      : filter === 'resumed'
        ? g.resumedSamples > 0
        : true,
  );
  const key = (g: GroupFigures): number => {
    switch (sort) {
      case 'wall':
        return -g.wallSec;
      case 'wall-vs-median':
        return -wallVsMedian(g);
      case 'reward-mean':
        return -(g.rewardMean ?? -Infinity);
      case 'reward-std':
        return g.rewardStd ?? Infinity;
      default:
        return 0;
    }
  };
  return shown
    .map((g, i) => ({ g, i, k: key(g) }))
    .sort((x, y) => x.k - y.k || x.i - y.i)
    .map((x) => x.g);
}
