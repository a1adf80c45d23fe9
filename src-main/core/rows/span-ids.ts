import { asciiText } from '../bytes/ascii-string-cache';
import { lastAtOrBefore } from '../model/sorted-search';

/** A record per id: its digit count (or OTHER), then up to 32 hex digits two to a byte. */
const RECORD = 17;
const MAX_DIGITS = 32;
const OTHER = 0xff;
const CHUNK_BITS = 16;
const CHUNK_MASK = (1 << CHUNK_BITS) - 1;
const FIRST_RECORDS = 64;
const HEX = '0123456789abcdef';
/** per char code, its hex digit's value, or -1 (lowercase digits only: they read back exact) */
const DIGIT = new Int8Array(128).fill(-1);
for (let d = 0; d < 16; d++) DIGIT[HEX.charCodeAt(d)] = d;

/**
 * The span ids of one file's packed rows, each kept once per row that names it (its span and its
 * children's parent id) by a number. An id of up to 32 lowercase hex digits (slime's uuid4 hex,
 * OTLP's and Chrome's ids) takes 17 bytes outside the collector's heap instead of a 48-byte
 * string in it: 900k ids at 100k samples, 43 MB of strings. Any other id is kept as it was.
 */
export class SpanIds {
  private readonly chunks: Uint8Array[] = [];
  private readonly others: unknown[] = [];
  private count = 0;
  private readonly scratch = Buffer.alloc(MAX_DIGITS);
  /**
   * Ranges of counted ids (`counted`), numbered from COUNTED up: per range its first number,
   * and its prefix. No record per id: the number says the id.
   */
  private readonly countedFirst: number[] = [];
  private readonly countedPrefix: string[] = [];
  private countedNext = COUNTED;

  /**
   * A SpanIds structured-cloned from another thread, usable again here (cloning keeps its
   * fields, not its class).
   */
  static revive(cloned: SpanIds): SpanIds {
    Object.setPrototypeOf(cloned, SpanIds.prototype);
    (cloned as unknown as { scratch: Buffer }).scratch = Buffer.alloc(MAX_DIGITS);
    return cloned;
  }

  /**
   * Numbers for the ids `prefix` + n, n from 0 below `count` (a Chrome trace's slices, counted
   * as read: "r0:17"): id n's number is the base returned + n, one number per id without a
   * record of it or a string made for it (a GPU rank's 150k id strings lived as long as its
   * rows). Null when the numbers left cannot hold them (the caller keeps its ids as strings).
   */
  counted(prefix: string, count: number): number | null {
    if (count > MAX_COUNTED - this.countedNext) return null;
    const base = this.countedNext;
    this.countedFirst.push(base);
    this.countedPrefix.push(prefix);
    this.countedNext += Math.max(1, count);
    return base;
  }

  /**
   * The number of `id` when a counted range names it (its prefix, then a whole number below the
   * range's count, written as countedId writes it), else a new number (add).
   */
  number(id: unknown): number {
    if (typeof id === 'string') {
      const counted = this.countedNumber(id);
      if (counted >= 0) return counted;
    }
    return this.add(id);
  }

  /** A new number for `id` (a string, or anything a format put there). */
  add(id: unknown): number {
    const index = this.count++;
    const at = (index & CHUNK_MASK) * RECORD;
    if (at === 0) this.chunks.push(new Uint8Array(RECORD * FIRST_RECORDS));
    let chunk = this.chunks[index >>> CHUNK_BITS];
    if (at === chunk.length) {
      // a chunk grows to its full 65,536 records by doubling: a file of a few ids keeps a
      // few kilobytes for them, not 1.1 MB
      const grown = new Uint8Array(Math.min(RECORD << CHUNK_BITS, chunk.length * 2));
      grown.set(chunk);
      chunk = this.chunks[index >>> CHUNK_BITS] = grown;
    }
    if (typeof id === 'string' && id.length <= MAX_DIGITS && packHex(id, chunk, at)) return index;
    chunk[at] = OTHER;
    new DataView(chunk.buffer, chunk.byteOffset).setUint32(at + 1, this.others.length, true);
    this.others.push(id);
    return index;
  }

  /** The id numbered `index`, as it was added. */
  get(index: number): unknown {
    if (index >= COUNTED) return this.countedId(index);
    const chunk = this.chunks[index >>> CHUNK_BITS];
    const at = (index & CHUNK_MASK) * RECORD;
    const digits = chunk[at];
    if (digits === OTHER)
      return this.others[new DataView(chunk.buffer, chunk.byteOffset).getUint32(at + 1, true)];
    const out = this.scratch;
    for (let i = 0; i < digits; i++) {
      const byte = chunk[at + 1 + (i >> 1)];
      out[i] = HEX.charCodeAt(i & 1 ? byte & 15 : byte >> 4);
    }
    return asciiText(out, 0, digits);
  }

  /** Whether the id numbered `index` is truthy (not the empty string), without making it. */
  isTruthy(index: number): boolean {
    if (index >= COUNTED) return true;
    const chunk = this.chunks[index >>> CHUNK_BITS];
    const at = (index & CHUNK_MASK) * RECORD;
    const digits = chunk[at];
    return digits === OTHER ? Boolean(this.get(index)) : digits > 0;
  }

  /** `id`'s number in the counted range that names it, or -1 */
  private countedNumber(id: string): number {
    for (let r = this.countedPrefix.length - 1; r >= 0; r--) {
      const prefix = this.countedPrefix[r];
      if (!id.startsWith(prefix)) continue;
      const n = wholeNumber(id, prefix.length);
      const end = r + 1 < this.countedFirst.length ? this.countedFirst[r + 1] : this.countedNext;
      if (n >= 0 && this.countedFirst[r] + n < end) return this.countedFirst[r] + n;
    }
    return -1;
  }

  /** the counted id numbered `index`: its range's prefix and its place in the range */
  private countedId(index: number): string {
    const range = lastAtOrBefore(this.countedFirst, index);
    return this.countedPrefix[range] + (index - this.countedFirst[range]);
  }
}

/**
 * Counted ids are numbered from here up to MAX_COUNTED (within an Int32Array's values, where a
 * row keeps its refs): the numbers below are records', never this many.
 */
const COUNTED = 2 ** 30;
const MAX_COUNTED = 2 ** 31 - 1;

/**
 * The whole number `text` writes from `from` on as String(n) would (no sign, no leading zero, at
 * most 10 digits), or -1.
 */
function wholeNumber(text: string, from: number): number {
  const digits = text.length - from;
  if (digits < 1 || digits > 10 || (digits > 1 && text.charCodeAt(from) === 48)) return -1;
  let n = 0;
  for (let i = from; i < text.length; i++) {
    const d = text.charCodeAt(i) - 48;
    if (d < 0 || d > 9) return -1;
    n = n * 10 + d;
  }
  return n;
}

/** `id`'s hex digits into the record at `at`; false (nothing kept) if it is not all hex. */
function packHex(id: string, chunk: Uint8Array, at: number): boolean {
  const n = id.length;
  // two digits a byte, a pair at a time (a char beyond ASCII reads as -1 through `& 127`'s
  // miss: DIGIT has no entry above 127, so those are checked apart)
  let b = at + 1;
  let i = 0;
  for (; i + 1 < n; i += 2) {
    const c0 = id.charCodeAt(i);
    const c1 = id.charCodeAt(i + 1);
    const d0 = DIGIT[c0 & 127];
    const d1 = DIGIT[c1 & 127];
    if ((d0 | d1) < 0 || (c0 | c1) > 127) return false;
    chunk[b++] = (d0 << 4) | d1;
  }
  if (i < n) {
    const c = id.charCodeAt(i);
    const d = DIGIT[c & 127];
    if (d < 0 || c > 127) return false;
    chunk[b] = d << 4;
  }
  chunk[at] = n;
  return true;
}
