import { spanNamePattern } from '../../src-main/core/model/span-name-pattern';

export interface SpanNameChoice {
  /** a span name, or a pattern with `*` for ids (the row query matches either) */
  value: string;
  /** how many spans carry it (all names of a pattern together) */
  count: number;
  /** how many distinct names a pattern stands for; 1 for a plain name */
  names: number;
}

/**
 * The span-name menu's entries: names that differ only in their ids become one pattern entry
 * (thousands of `decode Req …` become `decode Req *`), folded as core folds them for the perf
 * view's figures (core/model/span-name-pattern.ts); the rest stay as they are. Most spans first.
 */
export function spanNameChoices(spanNames: { name: string; count: number }[]): SpanNameChoice[] {
  const groups = new Map<string, { count: number; names: string[] }>();
  for (const { name, count } of spanNames) {
    const key = spanNamePattern(name);
    const group = groups.get(key) ?? { count: 0, names: [] };
    group.count += count;
    group.names.push(name);
    groups.set(key, group);
  }
  const choices: SpanNameChoice[] = [];
  for (const [pattern, group] of groups) {
    choices.push(
      group.names.length > 1
        ? { value: pattern, count: group.count, names: group.names.length }
        : { value: group.names[0], count: group.count, names: 1 },
    );
  }
  return choices.sort((a, b) => b.count - a.count || a.value.localeCompare(b.value));
}
