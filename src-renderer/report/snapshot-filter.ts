/**
 * The toolbar's filter answered in a report's page, from the rows the snapshot carries: the
 * store's lists for status, source and attempt (its own answers, kept when the report was made);
 * span names, reward ranges and the search box from the rows and span details themselves, with
 * the store's rules (core/store/query-rows.ts, search-text.ts), so a report finds what the app
 * finds. A report made without content searches what it kept: a prompt left out is not found.
 */
import type { RowFilter, RowView, SpanDetails } from '../../src-main/core/api/trace-api';
import type { AttrValue, Attrs } from '../../src-main/core/model/row';
import type { FileSnapshot } from '../../src-main/core/api/report-snapshot';
import { rewardValue } from '../../src-main/core/model/reward-value';
import { spanNamePatternRegExp } from '../../src-main/core/model/span-name-pattern';

/** A file of the report as the filter reads it: its snapshot, rows found by id, its texts. */
export interface FilteredFile {
  snapshot: FileSnapshot;
  row(rowId: number): RowView;
  /** every row, in `snapshot.rows` order */
  rows(): RowView[];
  /** per row (in `snapshot.rows` order), its search text (made before a search asks) */
  searchTexts(): string[];
  position(rowId: number): number;
}

/** The filter as a test on row ids; null when nothing is filtered. */
export function rowFilter(
  file: FilteredFile,
  filter: RowFilter | undefined,
): ((id: number) => boolean) | null {
  if (!filter) return null;
  const { snapshot } = file;
  const tests: ((id: number) => boolean)[] = [];
  const anyOf = (lists: Record<string, Int32Array>, values: (string | number)[] | undefined) => {
    if (!values || values.length === 0) return;
    const ids = new Set<number>();
    for (const v of values) for (const id of lists[String(v)] ?? []) ids.add(id);
    tests.push((id) => ids.has(id));
  };
  anyOf(snapshot.filterRows.statuses, filter.statuses);
  anyOf(snapshot.filterRows.sources, filter.sources);
  anyOf(snapshot.filterRows.attempts, filter.attempts);
  if (filter.rowIds) {
    const ids = new Set(filter.rowIds);
    tests.push((id) => ids.has(id));
  }
  if (filter.spanName) {
    const ids = rowsWithSpanName(file.rows(), filter.spanName);
    tests.push((id) => ids.has(id));
  }
  const { rewardMin: min, rewardMax: max } = filter;
  if (min !== undefined || max !== undefined) {
    // a row without a reward (NaN) is in no range, as in the store
    tests.push((id) => {
      const reward = rewardValue(file.row(id).reward) ?? NaN;
      return (min === undefined || reward >= min) && (max === undefined || reward <= max);
    });
  }
  const text = filter.text?.trim().toLowerCase() ?? '';
  if (text) {
    const texts = file.searchTexts();
    tests.push((id) => texts[file.position(id)].includes(text));
  }
  return tests.length === 0 ? null : (id) => tests.every((t) => t(id));
}

/**
 * Rows with a span or event of this name; a name no item has that holds `*` is a pattern (the
 * span-name menu's `decode Req *`), each `*` standing for any non-empty text.
 */
export function rowsWithSpanName(rows: RowView[], name: string): Set<number> {
  const exact = new Set<number>();
  for (const row of rows) if (row.items.some((item) => item.name === name)) exact.add(row.rowId);
  if (exact.size > 0 || !name.includes('*')) return exact;
  const pattern = spanNamePatternRegExp(name);
  const matched = new Set<number>();
  for (const row of rows)
    if (row.items.some((item) => pattern.test(item.name))) matched.add(row.rowId);
  return matched;
}

/** Between a row text's parts: no search box input holds it, so no match runs across parts. */
const SEP = '\u0001';

/**
 * A row's search text, lowercase, with the parts the store's has (search-text.ts): the sample
 * index (also as `#index`), source, status, label, trace id, each span's and each point's
 * attributes as `key=value` pairs, each span's service and the item names. The order of the
 * parts differs from the store's; no match runs across parts, so the rows found are the same.
 */
export function rowSearchText(
  row: RowView,
  spans: readonly (SpanDetails | null)[],
  points: readonly Attrs[],
): string {
  const index = flat(row.sampleIndex);
  const parts = [`#${index}`, index, row.source ?? '', row.status ?? '', flat(row.label)];
  parts.push(row.traceId ?? '');
  const pairsOf = (attrs: Attrs) => {
    const pairs = Object.entries(attrs).map(([key, value]) => `${key}=${flat(value)}`);
    if (pairs.length > 0) parts.push(pairs.join(' '));
  };
  for (const span of spans) {
    if (!span) continue;
    pairsOf(span.startAttrs);
    pairsOf(span.endAttrs);
    // the store searches a span's service, not the rest of its OTLP facts (kind, status)
    const service = span.otel?.service;
    if (typeof service === 'string' && service) parts.push(service);
  }
  for (const attrs of points) pairsOf(attrs);
  parts.push(...new Set(row.items.map((item) => item.name)));
  return parts.join(SEP).toLowerCase();
}

/** A value as search text: list items and `key=value` pairs, space-separated. */
function flat(value: AttrValue): string {
  if (value === null || value === undefined) return '';
  if (typeof value !== 'object') return String(value);
  if (Array.isArray(value)) return value.map(flat).join(' ');
  return Object.entries(value)
    .map(([key, v]) => `${key}=${flat(v)}`)
    .join(' ');
}
