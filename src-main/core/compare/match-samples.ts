import type { CompareResult } from '../api/trace-api';
import type { Row } from '../model/row';

/** What comparing needs of one row: its fields, and the key that matches carried-over prompts. */
export interface RowDigest {
  row_id: number;
  sample_index: Row['sample_index'];
  status: string | null;
  reward: number | null;
  /** the sample's `response_length` (slime's field), null when it has none */
  response_length: number | null;
  duration: number;
  /** group and prompt text; null when the sample has no prompt */
  promptKey: string | null;
}

/**
 * Which samples of A and B are the same sample. By index only when the index says so: every
 * pair an index would match has the same group and prompt (a dump against itself, or a re-run
 * of one rollout). Otherwise (consecutive rollouts: other prompts, resumed groups carried over)
 * by group and prompt; the samples left on either side are listed, not paired.
 */
export function matchRows(
  rowsA: RowDigest[],
  rowsB: RowDigest[],
): Pick<CompareResult, 'matched' | 'matchedBy' | 'onlyA' | 'onlyB'> {
  const bByIndex = new Map<string, RowDigest>();
  for (const row of rowsB) {
    const key = indexKey(row);
    if (key !== null && !bByIndex.has(key)) bByIndex.set(key, row);
  }
  const indexPairs = rowsA.flatMap((row) => {
    const key = indexKey(row);
    const other = key === null ? undefined : bByIndex.get(key);
    return other ? [[row, other] as const] : [];
  });
  const promptsAgree =
    indexPairs.length > 0 && indexPairs.every(([x, y]) => x.promptKey === y.promptKey);
  const matched: CompareResult['matched'] = [];
  const usedA = new Set<number>();
  const usedB = new Set<number>();
  if (promptsAgree) {
    for (const [x, y] of indexPairs) {
      matched.push({ aRowId: x.row_id, bRowId: y.row_id, key: `index ${String(x.sample_index)}` });
      usedA.add(x.row_id);
      usedB.add(y.row_id);
    }
  } else {
    const bByPrompt = new Map<string, number[]>();
    for (const row of rowsB) {
      if (row.promptKey === null) continue;
      const list = bByPrompt.get(row.promptKey);
      if (list) list.push(row.row_id);
      else bByPrompt.set(row.promptKey, [row.row_id]);
    }
    for (const row of rowsA) {
      const candidates = row.promptKey === null ? undefined : bByPrompt.get(row.promptKey);
      const bRow = candidates?.find((id) => !usedB.has(id));
      if (bRow === undefined) continue;
      matched.push({ aRowId: row.row_id, bRowId: bRow, key: 'group and prompt' });
      usedA.add(row.row_id);
      usedB.add(bRow);
    }
  }
  return {
    matched,
    matchedBy: promptsAgree ? 'index' : 'group and prompt',
    onlyA: rowsA.filter((row) => !usedA.has(row.row_id)).map((row) => row.row_id),
    onlyB: rowsB.filter((row) => !usedB.has(row.row_id)).map((row) => row.row_id),
  };
}

function indexKey(row: RowDigest): string | null {
  const index = row.sample_index;
  return typeof index === 'number' || typeof index === 'string' ? String(index) : null;
}
