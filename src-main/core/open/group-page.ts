import type { GroupPage, GroupQuery, GroupRowFigure } from '../api/trace-api';
import { combineParts, type FigurePart } from '../model/group-extra-figures';
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
  const list = query.rowFigure
    ? groupsByRowFigure(sortedGroups(groups, 'group', query.filter), query.rowFigure, query.reverse)
    : sortedGroups(groups, query.sort, query.filter, query.reverse);
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
  reverse = false,
): GroupFigures[] {
  let byQuery = lists.get(groups);
  if (!byQuery) lists.set(groups, (byQuery = new Map()));
  const id = `${sort}:${filter}:${reverse}`;
  let list = byQuery.get(id);
  if (list) return list;
  if (reverse) {
    // the same list backwards: ties too, so a second click is exactly the first's reverse
    list = sortedGroups(groups, sort, filter).slice().reverse();
    byQuery.set(id, list);
    return list;
  }
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
  samples: (g) => -g.rowIds.length,
  wall: (g) => -g.wallSec,
  'median-sample': (g) => -g.medianSampleSec,
  'wall-vs-median': (g) => -wallVsMedian(g),
  'reward-mean': (g) => -(g.rewardMean ?? -Infinity),
  'reward-std': (g) => g.rewardStd ?? Infinity,
};

/**
 * `groups` (in position order) by a figure the renderer sent per row: each group's from its
 * rows' parts, largest first (smallest when `reverse`), ties by position; groups with no part
 * last either way, in position order. Made per call, not kept: the figure is the caller's.
 */
export function groupsByRowFigure(
  groups: GroupFigures[],
  figure: GroupRowFigure,
  reverse = false,
): GroupFigures[] {
  const at = new Map<number, number>();
  figure.rowIds.forEach((row, i) => at.set(row, i));
  const parts = (g: GroupFigures) =>
    g.rowIds.map((row): FigurePart => {
      const i = at.get(row);
      return i === undefined ? null : [figure.values[i], figure.weights[i]];
    });
  const keyed = groups.map((g, i) => ({ g, i, v: combineParts(figure.combine, parts(g)) }));
  const sign = reverse ? 1 : -1;
  const withValue = keyed
    .filter((x): x is typeof x & { v: number } => x.v !== null && Number.isFinite(x.v))
    .sort((x, y) => sign * (x.v - y.v) || x.i - y.i);
  const without = keyed.filter((x) => x.v === null || !Number.isFinite(x.v));
  return [...withValue, ...without].map((x) => x.g);
}
