/** Ids inside span names: hex runs of 6+ with a digit (request, host ids), numbers of 3+ digits. */
const ID_TOKEN = /(?<![A-Za-z0-9])(?:(?=[0-9a-f]*\d)[0-9a-f]{6,}|\d{3,})(?![A-Za-z0-9])/g;

export interface SpanNameChoice {
  /** a span name, or a pattern with `*` for ids (the row query matches either) */
  value: string;
  /** how many spans carry it (all names of a pattern together) */
  count: number;
  /** how many distinct names a pattern stands for; 1 for a plain name */
  names: number;
}

/** A span name with its ids replaced by `*`: `decode Req 1a2b3c4d` -> `decode Req *`. */
export function spanNamePattern(name: string): string {
  return name.replace(ID_TOKEN, '*');
}

/**
 * The span-name menu's entries: names that differ only in their ids become one pattern entry
 * (thousands of `decode Req …` become `decode Req *`); the rest stay as they are. Most spans
 * first.
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
