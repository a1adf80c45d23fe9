import type { GroupPage, GroupQuery } from '../api/trace-api';
import type { GroupFilter, GroupSort } from '../api/sort-keys';
import { wallVsMedian } from '../model/group-wall-ratio';
import type { GroupFigures } from '../model/rollout-figures';

/** Per groups list, each (sort, filter) list made once: paging through it is then a slice. */
const lists = new WeakMap<GroupFigures[], Map<string, GroupFigures[]>>();

/**
 * One page of the groups view: the groups sorted and filtered (kept per list, sort and
 * filter), then [offset, offset + limit). 12.5k groups at 100k samples are too many to send or
 * draw at once; a page is what the view shows.
 */
export function groupPage(groups: GroupFigures[], query: GroupQuery): GroupPage {
  const list = sortedGroups(groups, query.sort, query.filter);
  let zeroVariance = 0;
  for (const g of groups) if (g.zeroVariance) zeroVariance++;
  return {
    groups: list.slice(query.offset, query.offset + query.limit),
    offset: query.offset,
    shown: list.length,
    total: groups.length,
    zeroVariance,
  };
}

/** The groups to show, in order: slowest / most skewed / best rewarded first, ties by position. */
export function sortedGroups(
  groups: GroupFigures[],
  sort: GroupSort,
  filter: GroupFilter,
): GroupFigures[] {
  let byQuery = lists.get(groups);
  if (!byQuery) lists.set(groups, (byQuery = new Map()));
  const id = `${sort}:${filter}`;
  let list = byQuery.get(id);
  if (list) return list;
  const shown = groups.filter((g) =>
    filter === 'zero-variance'
      ? g.zeroVariance
      : filter === 'resumed'
        ? g.resumedSamples > 0
        : true,
  );
  const key = GROUP_KEYS[sort];
  list = shown
    .map((g, i) => ({ g, i, k: key(g) }))
    .sort((x, y) => x.k - y.k || x.i - y.i)
    .map((x) => x.g);
  byQuery.set(id, list);
  return list;
}

/** Each sort as an ascending number: a Record, so a new GroupSort does not compile until here. */
const GROUP_KEYS: Record<GroupSort, (g: GroupFigures) => number> = {
  group: () => 0,
  wall: (g) => -g.wallSec,
  'wall-vs-median': (g) => -wallVsMedian(g),
  'reward-mean': (g) => -(g.rewardMean ?? -Infinity),
  'reward-std': (g) => g.rewardStd ?? Infinity,
};
