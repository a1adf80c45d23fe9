/**
 * Strings or nulls as one text, where each ends and a hash of each: 100k short strings cross
 * threads in a millisecond as one string (tens of milliseconds one by one), and are matched by
 * their hashes (small integers, which maps key fastest) with the text compared only on a hit.
 */
export interface TextColumn {
  text: string;
  /** value i is text.slice(ends[i - 1] (0 for the first), ends[i]) */
  ends: Int32Array;
  /** 1 where the value is null (its slice is empty) */
  nulls: Uint8Array;
  /** FNV-1a of each value's UTF-16 units, in 30 bits (0 for null) */
  hashes: Int32Array;
}

export function textColumn(values: (string | null)[]): TextColumn {
  const ends = new Int32Array(values.length);
  const nulls = new Uint8Array(values.length);
  const hashes = new Int32Array(values.length);
  let end = 0;
  values.forEach((value, i) => {
    if (value === null) nulls[i] = 1;
    else {
      end += value.length;
      hashes[i] = hash30(value);
    }
    ends[i] = end;
  });
  return { text: values.join(''), ends, nulls, hashes };
}

export function textAt(column: TextColumn, i: number): string | null {
  return column.nulls[i] === 1 ? null : column.text.slice(startOf(column, i), column.ends[i]);
}

export function textsOf(column: TextColumn): (string | null)[] {
  return Array.from(column.ends, (_, i) => textAt(column, i));
}

/** Value i of a equals value j of b (two nulls are equal), without slicing either on a miss. */
export function sameText(a: TextColumn, i: number, b: TextColumn, j: number): boolean {
  const nullA = a.nulls[i] === 1;
  if (nullA || b.nulls[j] === 1) return nullA && b.nulls[j] === 1;
  if (a.hashes[i] !== b.hashes[j]) return false;
  const startA = startOf(a, i);
  const startB = startOf(b, j);
  const length = a.ends[i] - startA;
  if (b.ends[j] - startB !== length) return false;
  return a.text.startsWith(b.text.slice(startB, startB + length), startA);
}

function startOf(column: TextColumn, i: number): number {
  return i === 0 ? 0 : column.ends[i - 1];
}

function hash30(text: string): number {
  let h = 0x811c9dc5;
  for (let k = 0; k < text.length; k++) h = Math.imul(h ^ text.charCodeAt(k), 0x01000193);
  return h & 0x3fffffff;
}

/**
 * The distinct values of a column: each non-null row's slot, and each slot's first row.
 * Slots are found by hash, then by text among values sharing a hash.
 */
export interface DistinctTexts {
  column: TextColumn;
  /** slot of each row; -1 for null */
  slotOf: Int32Array;
  /** the first row of each slot */
  firstRow: number[];
  /** hash -> its first slot; further slots with that hash in nextSameHash */
  byHash: Map<number, number>;
  nextSameHash: number[];
}

export function distinctTexts(column: TextColumn): DistinctTexts {
  const found: DistinctTexts = {
    column,
    slotOf: new Int32Array(column.ends.length).fill(-1),
    firstRow: [],
    byHash: new Map(),
    nextSameHash: [],
  };
  for (let row = 0; row < column.ends.length; row++) {
    if (column.nulls[row] === 1) continue;
    let slot = slotOfText(found, column, row);
    if (slot < 0) {
      slot = found.firstRow.push(row) - 1;
      found.nextSameHash.push(found.byHash.get(column.hashes[row]) ?? -1);
      found.byHash.set(column.hashes[row], slot);
    }
    found.slotOf[row] = slot;
  }
  return found;
}

/** The slot holding value `row` of `other` (another column, or the same), or -1. */
export function slotOfText(found: DistinctTexts, other: TextColumn, row: number): number {
  if (other.nulls[row] === 1) return -1;
  let slot = found.byHash.get(other.hashes[row]) ?? -1;
  while (slot >= 0 && !sameText(found.column, found.firstRow[slot], other, row)) {
    slot = found.nextSameHash[slot];
  }
  return slot;
}
