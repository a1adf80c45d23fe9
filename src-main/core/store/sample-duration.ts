import type { Row } from '../model/row';

/**
 * Each row's own duration: the extent of its items without the spans it shares with other rows
 * of its group. slime copies the group's span (`generate_and_rm_group`) into every sample of the
 * group, with the same name and times; sorting by the whole row would make a group's samples
 * tie. A span counts as shared when another row of the same group has one of the same name,
 * start and end. A row with nothing of its own keeps its whole extent.
 */
export function buildSampleDurations(rows: Row[]): Float64Array {
  const keyOf = (row: Row, name: string, start: number, end: number) =>
    `${String(row.group_index)}\u0000${name}\u0000${start}\u0000${end}`;
  const rowsWithKey = new Map<string, number>();
  for (const row of rows) {
    if (row.group_index === null || row.group_index === undefined) continue;
    const seen = new Set<string>();
    for (const item of row.items) {
      if (item.type !== 'span') continue;
      const key = keyOf(row, item.name, item.start_ts, item.display_end_ts);
      if (seen.has(key)) continue;
      seen.add(key);
      rowsWithKey.set(key, (rowsWithKey.get(key) ?? 0) + 1);
    }
  }
  const out = new Float64Array(rows.length);
  rows.forEach((row, r) => {
    let start = Infinity;
    let end = -Infinity;
    for (const item of row.items) {
      const [a, b] =
        item.type === 'span' ? [item.start_ts, item.display_end_ts] : [item.ts, item.ts];
      if (
        item.type === 'span' &&
        row.group_index !== null &&
        row.group_index !== undefined &&
        (rowsWithKey.get(keyOf(row, item.name, a, b)) ?? 0) > 1
      )
        continue;
      if (a < start) start = a;
      if (b > end) end = b;
    }
    out[r] = end >= start ? end - start : row.end - row.start;
  });
  return out;
}
