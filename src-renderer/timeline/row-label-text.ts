import type { RowView } from '../../src-main/core/api/trace-api';

/**
 * The texts of a row's label column, as RowLabel shows them and a picture draws them: index,
 * group, source, status and reward (two decimals; a reward object's `score`).
 */
export interface RowLabelTexts {
  index: string;
  group: string;
  source: string;
  status: string | null;
  reward: string;
}

export function rowLabelTexts(row: RowView): RowLabelTexts {
  return {
    index: `#${String(row.sampleIndex)}`,
    group: row.groupIndex !== null ? `g${String(row.groupIndex)}` : '',
    source: row.source ?? '',
    status: row.status ?? null,
    reward: rewardText(row.reward),
  };
}

export function rewardText(reward: unknown): string {
  if (typeof reward === 'number') return reward.toFixed(2);
  if (
    reward &&
    typeof reward === 'object' &&
    typeof (reward as { score?: unknown }).score === 'number'
  ) {
    return (reward as { score: number }).score.toFixed(2);
  }
  return '';
}

/** Characters the index and group columns need for the largest values seen so far. */
export function labelColumnChars(
  rows: Iterable<RowView>,
  rowCount: number,
): {
  index: number;
  group: number;
} {
  let index = String(Math.max(0, rowCount - 1)).length;
  let group = 0;
  for (const row of rows) {
    index = Math.max(index, String(row.sampleIndex).length);
    if (row.groupIndex !== null) group = Math.max(group, String(row.groupIndex).length);
  }
  return { index: index + 1, group: group === 0 ? 0 : group + 1 };
}

/**
 * The label column's width that fits index, group, source, status and reward (CSS pixels), and
 * a named row's name (capabilities.namedRows: room for `decode Req 5e0f1a2b`).
 */
export function fittedLabelWidth(chars: { index: number; group: number }, named = false): number {
  return Math.round(14 + 8 + (chars.index + chars.group) * 7.5 + 90 + 60 + 44 + (named ? 140 : 0));
}
