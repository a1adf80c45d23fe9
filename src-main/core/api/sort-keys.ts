/**
 * The row orders of the contract and what people call them: the one list behind the SortKey
 * type, argument validation (api/validate-call.ts), the store's sort (store/query-rows.ts) and
 * the sort menus of the renderer, which imports this module (data only).
 */
export const SORT_KEYS = [
  { key: 'row_id', label: 'sample order' },
  { key: 'start', label: 'start' },
  { key: 'duration', label: 'sample duration' },
  { key: 'group_duration', label: 'group duration' },
  { key: 'reward', label: 'reward' },
  { key: 'lane_count', label: 'lane count' },
  { key: 'ongoing', label: 'ongoing spans' },
  { key: 'sample_index', label: 'sample index' },
  { key: 'group', label: 'group' },
] as const;

export type SortKey = (typeof SORT_KEYS)[number]['key'];

const KEYS: ReadonlySet<string> = new Set(SORT_KEYS.map((s) => s.key));

export function isSortKey(value: unknown): value is SortKey {
  return typeof value === 'string' && KEYS.has(value);
}

/**
 * The groups view's orders (getPerfGroups): largest, slowest, most skewed, best rewarded first;
 * each its column's header too, a second click reversing it (GroupQuery.reverse).
 */
export const GROUP_SORTS = [
  { key: 'group', label: 'group' },
  { key: 'samples', label: 'samples (most first)' },
  { key: 'wall', label: 'wall time' },
  { key: 'median-sample', label: 'median sample' },
  { key: 'wall-vs-median', label: 'wall / median sample' },
  { key: 'reward-mean', label: 'reward mean' },
  { key: 'reward-std', label: 'reward spread (lowest first)' },
] as const;

export type GroupSort = (typeof GROUP_SORTS)[number]['key'];

/** Which groups the groups view shows. */
export const GROUP_FILTERS = [
  { key: 'all', label: 'all groups' },
  { key: 'zero-variance', label: 'zero variance only' },
  { key: 'resumed', label: 'with resumed samples' },
] as const;

export type GroupFilter = (typeof GROUP_FILTERS)[number]['key'];

export function isGroupSort(value: unknown): value is GroupSort {
  return GROUP_SORTS.some((s) => s.key === value);
}

export function isGroupFilter(value: unknown): value is GroupFilter {
  return GROUP_FILTERS.some((f) => f.key === value);
}
