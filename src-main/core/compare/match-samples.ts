import type { CompareResult } from '../api/trace-api';
import type { RowDigestColumns } from './row-digest-columns';

/** Which rows pair up: positions in A's and B's digest columns, pair by pair in A's order. */
export interface RowMatch {
  aAt: Int32Array;
  bAt: Int32Array;
  matchedBy: CompareResult['matchedBy'];
  onlyA: Int32Array;
  onlyB: Int32Array;
}

/**
 * Which samples of A and B are the same sample. By index only when the index says so: every
 * pair an index would match has the same group and prompt (a dump against itself, or a re-run
 * of one rollout). Otherwise (consecutive rollouts: other prompts, resumed groups carried over)
 * by group and prompt; the samples left on either side are listed, not paired.
 */
export function matchRows(a: RowDigestColumns, b: RowDigestColumns): RowMatch {
  const byIndex = matchByIndex(a, b);
  const pairs = byIndex ?? matchByPrompt(a, b);
  const usedA = new Uint8Array(a.rowIds.length);
  const usedB = new Uint8Array(b.rowIds.length);
  for (let k = 0; k < pairs.aAt.length; k++) {
    usedA[pairs.aAt[k]] = 1;
    usedB[pairs.bAt[k]] = 1;
  }
  return {
    ...pairs,
    matchedBy: byIndex ? 'index' : 'group and prompt',
    onlyA: unused(a.rowIds, usedA),
    onlyB: unused(b.rowIds, usedB),
  };
}

/**
 * Pairs by sample index (each index pairs with B's first row of that index), or null when no
 * index pairs or some index pair has another prompt.
 */
function matchByIndex(
  a: RowDigestColumns,
  b: RowDigestColumns,
): Pick<RowMatch, 'aAt' | 'bAt'> | null {
  const bByIndex = new Map<number | string, number>();
  b.sampleIndexes.forEach((index, at) => {
    const key = indexKey(index);
    if (key !== null && !bByIndex.has(key)) bByIndex.set(key, at);
  });
  const aAt = new Int32Array(a.rowIds.length);
  const bAt = new Int32Array(a.rowIds.length);
  let count = 0;
  for (let at = 0; at < a.rowIds.length; at++) {
    const key = indexKey(a.sampleIndexes[at]);
    const other = key === null ? undefined : bByIndex.get(key);
    if (other === undefined) continue;
    if (a.promptKeys[at] !== b.promptKeys[other]) return null;
    aAt[count] = at;
    bAt[count] = other;
    count += 1;
  }
  return count === 0 ? null : { aAt: aAt.slice(0, count), bAt: bAt.slice(0, count) };
}

/** Each A row takes the first B row with its group and prompt that no earlier A row took. */
function matchByPrompt(a: RowDigestColumns, b: RowDigestColumns): Pick<RowMatch, 'aAt' | 'bAt'> {
  // B's rows of one prompt as a chain (first row, then next[]); a taken row is always the
  // chain's head, so taking one moves the head on
  const head = new Map<string, number>();
  const next = new Int32Array(b.rowIds.length).fill(-1);
  const last = new Map<string, number>();
  b.promptKeys.forEach((key, at) => {
    if (key === null) return;
    const tail = last.get(key);
    if (tail === undefined) head.set(key, at);
    else next[tail] = at;
    last.set(key, at);
  });
  const aAt = new Int32Array(a.rowIds.length);
  const bAt = new Int32Array(a.rowIds.length);
  let count = 0;
  for (let at = 0; at < a.rowIds.length; at++) {
    const key = a.promptKeys[at];
    const other = key === null ? undefined : head.get(key);
    if (other === undefined || other < 0) continue;
    head.set(key!, next[other]);
    aAt[count] = at;
    bAt[count] = other;
    count += 1;
  }
  return { aAt: aAt.slice(0, count), bAt: bAt.slice(0, count) };
}

function unused(rowIds: Int32Array, used: Uint8Array): Int32Array {
  const out: number[] = [];
  for (let at = 0; at < rowIds.length; at++) if (used[at] === 0) out.push(rowIds[at]);
  return Int32Array.from(out);
}

/**
 * An index as the key it matches by: equal when their text is (3 and '3' are one index, '03'
 * another), as numbers where the text is a number's, so most keys hash as numbers.
 */
function indexKey(index: number | string | null): number | string | null {
  if (typeof index !== 'string') return index;
  const asNumber = Number(index);
  return String(asNumber) === index ? asNumber : index;
}
