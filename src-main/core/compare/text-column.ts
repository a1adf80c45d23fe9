import { finishSteps } from '../store/kept-steps';

/**
 * Strings or nulls as one text, where each ends, a hash of each and a hash table of the
 * distinct values: 100k short strings cross threads in a millisecond as one string (tens of
 * milliseconds one by one), and the table is made where the column is (a file's worker), so a
 * lookup from another column costs a probe or two and one text comparison.
 */
export interface TextColumn {
  text: string;
  /** value i is text.slice(ends[i - 1] (0 for the first), ends[i]) */
  ends: Int32Array;
  /** 1 where the value is null (its slice is empty) */
  nulls: Uint8Array;
  /** FNV-1a of each value's UTF-16 units, in 30 bits (0 for null) */
  hashes: Int32Array;
  /**
   * open addressing on the hashes (linear probing, a power of two at least twice the rows):
   * each distinct value's first row, -1 where empty
   */
  table: Int32Array;
  /** the next row with the same value as this one, -1 after the last */
  nextSame: Int32Array;
}

export function textColumn(values: (string | null)[]): TextColumn {
  return finishSteps(textColumnSteps(values, Infinity));
}

/**
 * textColumn with a yield after each `rowsPerStep` values hashed and each `rowsPerStep` looked
 * up in the table: made at once, a column of 100k prompt keys was the worker's warm-up's longest
 * step (50-90 ms), which a sort asked meanwhile waited for.
 */
export function* textColumnSteps(
  values: (string | null)[],
  rowsPerStep: number,
): Generator<void, TextColumn, void> {
  const rows = values.length;
  const ends = new Int32Array(rows);
  const nulls = new Uint8Array(rows);
  const hashes = new Int32Array(rows);
  let end = 0;
  // the text joined a step's values at a time (100k keys joined at once took 20 ms)
  const texts: string[] = [];
  let joinedTo = 0;
  for (let i = 0; i < rows; i++) {
    const value = values[i];
    if (value === null) nulls[i] = 1;
    else {
      end += value.length;
      hashes[i] = hash30(value);
    }
    ends[i] = end;
    if ((i + 1) % rowsPerStep === 0) {
      texts.push(values.slice(joinedTo, i + 1).join(''));
      joinedTo = i + 1;
      yield;
    }
  }
  if (joinedTo < rows) texts.push(values.slice(joinedTo).join(''));
  const column = { text: texts.join(''), ends, nulls, hashes };
  let size = 8;
  while (size < rows * 2) size *= 2;
  const table = new Int32Array(size).fill(-1);
  const last = new Int32Array(size);
  const nextSame = new Int32Array(rows).fill(-1);
  const found = { ...column, table, nextSame };
  for (let row = 0; row < rows; row++) {
    if (column.nulls[row] === 0) {
      const at = probe(found, found, row);
      if (table[at] < 0) table[at] = row;
      else nextSame[last[at]] = row;
      last[at] = row;
    }
    if ((row + 1) % rowsPerStep === 0) yield;
  }
  return found;
}

/** The table position of value `row` of `other`: where it is, or the empty place it would go. */
function probe(column: TextColumn, other: TextColumn, row: number): number {
  const mask = column.table.length - 1;
  let at = other.hashes[row] & mask;
  while (column.table[at] >= 0 && !sameText(column, column.table[at], other, row)) {
    at = (at + 1) & mask;
  }
  return at;
}

/** The first row of `column` whose value is value `row` of `other`; -1 when none or null. */
export function firstRowOf(column: TextColumn, other: TextColumn, row: number): number {
  return other.nulls[row] === 1 ? -1 : column.table[probe(column, other, row)];
}

export function textAt(column: TextColumn, i: number): string | null {
  return column.nulls[i] === 1 ? null : column.text.slice(startOf(column, i), column.ends[i]);
}

export function textsOf(column: TextColumn): (string | null)[] {
  return Array.from(column.ends, (_, i) => textAt(column, i));
}

/** Value i of a equals value j of b (two nulls are equal), without slicing either. */
export function sameText(a: TextColumn, i: number, b: TextColumn, j: number): boolean {
  const nullA = a.nulls[i] === 1;
  if (nullA || b.nulls[j] === 1) return nullA && b.nulls[j] === 1;
  if (a.hashes[i] !== b.hashes[j]) return false;
  const startA = startOf(a, i);
  const startB = startOf(b, j);
  const length = a.ends[i] - startA;
  if (b.ends[j] - startB !== length) return false;
  // unit by unit: keys are tens of units, where a slice to compare would cost more
  const textA = a.text;
  const textB = b.text;
  for (let k = 0; k < length; k++) {
    if (textA.charCodeAt(startA + k) !== textB.charCodeAt(startB + k)) return false;
  }
  return true;
}

function startOf(column: TextColumn, i: number): number {
  return i === 0 ? 0 : column.ends[i - 1];
}

function hash30(text: string): number {
  let h = 0x811c9dc5;
  for (let k = 0; k < text.length; k++) h = Math.imul(h ^ text.charCodeAt(k), 0x01000193);
  return h & 0x3fffffff;
}
