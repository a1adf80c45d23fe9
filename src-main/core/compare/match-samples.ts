import type { CompareResult } from '../api/trace-api';
import type { RowDigestColumns } from './row-digest-columns';
import { firstRowOf, sameText, type TextColumn } from './text-column';

/** Which rows pair up: positions in A's and B's digest columns, pair by pair in A's order. */
export interface RowMatch {
  aAt: Int32Array;
  bAt: Int32Array;
  matchedBy: CompareResult['matchedBy'];
  onlyA: Int32Array;
  onlyB: Int32Array;
}

type Pairs = Pick<RowMatch, 'aAt' | 'bAt'>;

/**
 * Which samples of A and B are the same sample. By index only when the index says so: every
 * pair an index would match has the same group and prompt (a dump against itself, or a re-run
 * of one rollout). Otherwise (consecutive rollouts: other prompts, resumed groups carried over)
 * by group and prompt; the samples left on either side are listed, not paired.
 */
export function matchRows(a: RowDigestColumns, b: RowDigestColumns): RowMatch {
  const byIndex = matchByIndex(a, b);
  const pairs = byIndex ?? matchByPrompt(a.promptKeys, b.promptKeys);
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
function matchByIndex(a: RowDigestColumns, b: RowDigestColumns): Pairs | null {
  const pairs = new PairList(a.rowIds.length);
  for (let at = 0; at < a.rowIds.length; at++) {
    const other = firstRowOf(b.indexKeys, a.indexKeys, at);
    if (other < 0) continue;
    if (!sameText(a.promptKeys, at, b.promptKeys, other)) return null;
    pairs.add(at, other);
  }
  return pairs.count === 0 ? null : pairs.done();
}

/** Each A row takes the first B row with its group and prompt that no earlier A row took. */
function matchByPrompt(promptsA: TextColumn, promptsB: TextColumn): Pairs {
  // B's rows of one prompt are a chain (its first row, then nextSame); a taken row is always
  // the first not taken, so each prompt keeps where its chain goes on, by its first row
  // (-2: none taken yet; -1: all taken)
  const nextFree = new Int32Array(promptsB.ends.length).fill(-2);
  const pairs = new PairList(promptsA.ends.length);
  for (let at = 0; at < promptsA.ends.length; at++) {
    const first = firstRowOf(promptsB, promptsA, at);
    if (first < 0) continue;
    const free = nextFree[first] === -2 ? first : nextFree[first];
    if (free < 0) continue;
    pairs.add(at, free);
    nextFree[first] = promptsB.nextSame[free];
  }
  return pairs.done();
}

/** Pairs of positions as they are found, at most one per A row. */
class PairList {
  private readonly aAt: Int32Array;
  private readonly bAt: Int32Array;
  count = 0;
  constructor(capacity: number) {
    this.aAt = new Int32Array(capacity);
    this.bAt = new Int32Array(capacity);
  }
  add(aAt: number, bAt: number): void {
    this.aAt[this.count] = aAt;
    this.bAt[this.count] = bAt;
    this.count += 1;
  }
  done(): Pairs {
    return { aAt: this.aAt.slice(0, this.count), bAt: this.bAt.slice(0, this.count) };
  }
}

function unused(rowIds: Int32Array, used: Uint8Array): Int32Array {
  const out: number[] = [];
  for (let at = 0; at < rowIds.length; at++) if (used[at] === 0) out.push(rowIds[at]);
  return Int32Array.from(out);
}
