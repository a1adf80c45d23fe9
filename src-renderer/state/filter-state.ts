import type { RowFilter } from '../../src-main/core/api/trace-api';

/** A value added to or taken from a multi-select filter list; an empty list means "any". */
export function toggleInList<T>(list: T[] | undefined, value: T): T[] | undefined {
  const next = new Set(list ?? []);
  if (next.has(value)) next.delete(value);
  else next.add(value);
  return next.size > 0 ? [...next] : undefined;
}

/** Whether a filter narrows anything (empty strings and lists do not). */
export function isFilterActive(filter: RowFilter): boolean {
  return Object.values(filter).some(
    (v) => v !== undefined && v !== '' && !(Array.isArray(v) && v.length === 0),
  );
}

/** How many separate conditions are set: the badge beside "Clear". */
export function activeConditionCount(filter: RowFilter): number {
  let n = 0;
  if (filter.text) n++;
  if (filter.statuses?.length) n++;
  if (filter.sources?.length) n++;
  if (filter.attempts?.length) n++;
  if (filter.spanName) n++;
  if (filter.rewardMin !== undefined || filter.rewardMax !== undefined) n++;
  if (filter.rowIds) n++;
  return n;
}

/** A reward bound typed in a number box: blank or not a number means "no bound". */
export function parseBound(text: string): number | undefined {
  if (text.trim() === '') return undefined;
  const value = Number(text);
  return Number.isFinite(value) ? value : undefined;
}
