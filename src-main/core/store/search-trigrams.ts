import { grownColumn } from '../model/grown-column';

/**
 * Per row of search text, which runs of three bytes it holds, as a small bit set (a Bloom
 * filter of one hash): a search first asks each row whether it may hold every three bytes of
 * the needle, and searches the text only of the rows that may. At 100k rows of a rollout the
 * texts are over 100 MB: a needle no row holds was a pass over all of them (90-160 ms on a busy
 * machine), and now is a few bit tests a row. Never wrong about a row that holds the needle
 * (each of its runs set a bit); a row that may hold it is searched all the same.
 *
 * A row of `size` bytes gets the power of two of bits at or above its size (64 at least,
 * 2^24 at most): at most as many runs as bytes, so at most 63% of the bits are set, usually far
 * fewer (rows repeat their keys and names), and 1 to 2 bits a byte of text.
 */
export class RowTrigrams {
  /** every row's bits, rows end to end */
  private words = new Int32Array(1024);
  private used = 0;
  /** per row: where its words start, and log2 of its bit count */
  private rowAt = new Int32Array(256);
  private rowBits = new Uint8Array(256);
  /** rows that have their bits (rows [0, length)) */
  length = 0;

  /** the row being added over several calls (the next row), and the byte it goes on from */
  private partRow = -1;
  private partFrom = 0;

  /**
   * Adds the bits of the next row, whose text is `bytes[start, end)`: at most `budget` bytes of
   * it this call (a GPU rank's row is one text of hundreds of MB: seconds in one go, which the
   * calls asked meanwhile waited for). Returns whether the row is done; if not, the next call
   * with the same row goes on where this one stopped. A row not done may hold anything.
   */
  add(bytes: Uint8Array, start: number, end: number, budget = Infinity): boolean {
    const r = this.length;
    const log2 = bitsLog2(end - start);
    const words = 1 << (log2 - 5);
    let from = start;
    if (this.partRow === r) from = this.partFrom;
    else {
      if (r === this.rowAt.length) {
        this.rowAt = grownColumn(this.rowAt, 0, 2);
        this.rowBits = grownColumn(this.rowBits, 0, 2);
      }
      if (this.used + words > this.words.length)
        this.words = grownColumn(this.words, this.used + words, 1.5);
      this.rowAt[r] = this.used;
      this.rowBits[r] = log2;
    }
    const to = Math.min(end, from + budget);
    const at = this.rowAt[r];
    const shift = 32 - log2;
    const bits = this.words;
    // each run of three bytes ending at i, whichever call reads it
    for (let i = Math.max(from, start + 2); i < to; i++) {
      const run = (bytes[i - 2] << 16) | (bytes[i - 1] << 8) | bytes[i];
      const h = Math.imul(run, HASH) >>> shift;
      bits[at + (h >>> 5)] |= 1 << (h & 31);
    }
    if (to < end) {
      this.partRow = r;
      this.partFrom = to;
      return false;
    }
    this.partRow = -1;
    this.used += words;
    this.length = r + 1;
    return true;
  }

  /** Whether row r may hold every run of `runs` (trigramsOf's); true for a row without bits. */
  mayHold(r: number, runs: Int32Array): boolean {
    if (r >= this.length) return true;
    const at = this.rowAt[r];
    const shift = 32 - this.rowBits[r];
    const bits = this.words;
    for (let k = 0; k < runs.length; k++) {
      const h = Math.imul(runs[k], HASH) >>> shift;
      if ((bits[at + (h >>> 5)] & (1 << (h & 31))) === 0) return false;
    }
    return true;
  }
}

/** The distinct runs of three bytes of `needle` (none when it is shorter). */
export function trigramsOf(needle: Uint8Array): Int32Array {
  const runs = new Set<number>();
  for (let i = 2; i < needle.length; i++)
    runs.add((needle[i - 2] << 16) | (needle[i - 1] << 8) | needle[i]);
  return Int32Array.from(runs);
}

/** Knuth's multiplicative hash: the top bits of the product are the bit's index. */
const HASH = 0x9e3779b1 | 0;

const MIN_LOG2 = 6;
const MAX_LOG2 = 24;

/** log2 of the bits of a row of `size` bytes: the power of two at or above it, within bounds. */
function bitsLog2(size: number): number {
  let log2 = MIN_LOG2;
  while (log2 < MAX_LOG2 && 1 << log2 < size) log2++;
  return log2;
}
