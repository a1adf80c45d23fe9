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
