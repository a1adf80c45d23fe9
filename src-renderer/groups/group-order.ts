import type { GroupQuery } from '../../src-main/core/api/trace-api';
import { GROUP_SORTS, type GroupSort } from '../../src-main/core/api/sort-keys';
import { rowFigureParts, type GroupExtraKey } from '../../src-main/core/model/group-extra-figures';
import type { RunSampleFigures } from '../../src-main/core/model/run-extra';

/**
 * The groups view's order: one of the worker's sorts, or a run figure's column (`run:<key>`,
 * whose per-row parts the query carries), and whether its header was clicked again.
 */
export type GroupColumn = GroupSort | `run:${GroupExtraKey}`;

export interface GroupOrder {
  column: GroupColumn;
  reverse: boolean;
}

export const FIRST_ORDER: GroupOrder = { column: 'group', reverse: false };

/** A header clicked: its column in its own order, or the same column reversed. */
export function clickedOrder(order: GroupOrder, column: GroupColumn): GroupOrder {
  return order.column === column ? { column, reverse: !order.reverse } : { column, reverse: false };
}

export function isGroupSortColumn(column: GroupColumn): column is GroupSort {
  return GROUP_SORTS.some((s) => s.key === column);
}

/**
 * The query for a page in `order`: a run column sends its figure's part of every joined
 * sample (the worker holds no run figures); without the run's figures, the group order.
 */
export function groupQueryOf(
  order: GroupOrder,
  filter: GroupQuery['filter'],
  figures: Map<number, RunSampleFigures> | null,
  offset: number,
  limit: number,
): GroupQuery {
  const base = { filter, offset, limit, ...(order.reverse ? { reverse: true } : {}) };
  if (isGroupSortColumn(order.column)) return { ...base, sort: order.column };
  if (figures === null) return { filter, offset, limit, sort: 'group' };
  const key = order.column.slice('run:'.length) as GroupExtraKey;
  return { ...base, sort: 'group', rowFigure: rowFigureParts(key, figures.values()) };
}
