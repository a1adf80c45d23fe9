import { AsciiStringCache, FNV_START, asciiText, fnv } from '../../bytes/ascii-string-cache';

/** Thrown (one shared instance, no stack) when a line needs the JSON.parse path. */
export const BAIL = Object.freeze({ bail: true });

export const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const COLON = 0x3a;
export const OPEN_BRACE = 0x7b;
export const CLOSE_BRACE = 0x7d;
export const OPEN_BRACKET = 0x5b;
export const CLOSE_BRACKET = 0x5d;
const MINUS = 0x2d;
const PLUS = 0x2b;
const DOT = 0x2e;
export const ZERO = 0x30;
export const NINE = 0x39;
const MAX_DEPTH = 64;

const CACHE_MAX_LENGTH = 64;

/** The keys an object can hold (both spellings), as bytes to compare with, and their ids. */
export interface KeyTable {
  bytes: Uint8Array[];
  ids: number[];
}

export function keyTable(entries: Record<string, number>): KeyTable {
  const names = Object.keys(entries);
  return { bytes: names.map((n) => Buffer.from(n, 'latin1')), ids: names.map((n) => entries[n]) };
}

/** The id key() gives a key no table names. */
export const UNKNOWN = 0;
const NO_KEYS = keyTable({});

/**
 * JSON read straight from a line's bytes, checked against the grammar as it goes (so nothing
 * JSON.parse would reject is accepted): objects and arrays member by member, keys matched
 * against the names a caller expects, strings from caches. Anything it does not read exactly
 * as JSON.parse would throws BAIL. The format's shapes are read by a subclass
 * (scan-export-line.ts).
 */
export class JsonBytes {
  protected b: Buffer = Buffer.alloc(0);
  protected p = 0;
  protected end = 0;
  protected depth = 0;
  private readonly cache = new AsciiStringCache();
  /** the last plain (unescaped) string read per call site */
  private readonly last: string[];

  /** `sites`: how many call sites of string() remember their last value */
  constructor(sites: number) {
    this.last = new Array<string>(sites).fill('');
  }

  /** Reads `line` (without its newline) from its start. */
  protected begin(line: Uint8Array): void {
    // a view of exactly the line: a read past its end is undefined, which no check accepts
    this.b = Buffer.from(line.buffer, line.byteOffset, line.byteLength);
    this.p = 0;
    this.end = line.byteLength;
    this.depth = 0;
  }

  /** Opens an object or array; false (and closed) when it is empty. */
  protected enter(open: number): boolean {
    const b = this.b;
    if (b[this.p] !== open || ++this.depth > MAX_DEPTH) throw BAIL;
    this.p++;
    this.ws();
    if (b[this.p] === open + 2) {
      // '}' is '{' + 2 and ']' is '[' + 2
      this.p++;
      this.depth--;
      return false;
    }
    return true;
  }

  /** After a member or element: true at a comma, false (and closed) at `close`. */
  protected next(close: number): boolean {
    this.ws();
    const c = this.b[this.p++];
    if (c === COMMA) {
      this.ws();
      return true;
    }
    if (c === close) {
      this.depth--;
      return false;
    }
    throw BAIL;
  }

  /**
   * A member's key matched against the names this object can hold, then its colon: the id of
   * the name, or UNKNOWN (a key validated and not needed). Comparing with each candidate's
   * bytes validates the key as it matches; no string is made.
   */
  protected key(names: KeyTable): number {
    const b = this.b;
    if (b[this.p] !== QUOTE) throw BAIL;
    const start = this.p + 1;
    const first = b[start];
    let id = UNKNOWN;
    let matched = false;
    const bytes = names.bytes;
    for (let k = 0; k < bytes.length; k++) {
      const name = bytes[k];
      if (name[0] !== first) continue;
      const length = name.length;
      if (b[start + length] !== QUOTE) continue;
      let i = 1;
      while (i < length && b[start + i] === name[i]) i++;
      if (i === length) {
        id = names.ids[k];
        matched = true;
        this.p = start + length + 1;
        break;
      }
    }
    if (!matched) this.skipString();
    this.ws();
    if (b[this.p] !== COLON) throw BAIL;
    this.p++;
    this.ws();
    return id;
  }

  protected ws(): void {
    const b = this.b;
    let p = this.p;
    // exporters write no whitespace: one comparison in the usual case
    if (b[p] > 0x20) return;
    for (;;) {
      const c = b[p];
      if (c === 0x20 || c === 0x09 || c === 0x0d || c === 0x0a) p++;
      else break;
    }
    this.p = p;
  }

  /** A string seen once (a span id): no cache. */
  protected freshString(): string {
    const b = this.b;
    let p = this.p;
    if (b[p] !== QUOTE) throw BAIL;
    const start = ++p;
    for (;;) {
      const c = b[p];
      if (c === QUOTE) break;
      if (c === BACKSLASH) return this.escapedString(start);
      if (c < 0x20 || c === undefined) throw BAIL;
      p++;
    }
    this.p = p + 1;
    return asciiText(b, start, p);
  }

  /**
   * A string. Repeats cost no allocation: first the last value read at this call site (trace
   * ids, parents and names mostly repeat their neighbour's), then a cache keyed by the bytes.
   */
  protected string(site: number): string {
    const b = this.b;
    if (b[this.p] !== QUOTE) throw BAIL;
    const start = this.p + 1;
    const last = this.last[site];
    const n = last.length;
    if (n > 0 && b[start + n] === QUOTE) {
      let i = 0;
      while (i < n && b[start + i] === last.charCodeAt(i)) i++;
      if (i === n) {
        this.p = start + n + 1;
        return last;
      }
    }
    let p = start;
    const end = this.end;
    let hash = FNV_START;
    for (;;) {
      if (p >= end) throw BAIL;
      const c = b[p];
      if (c === QUOTE) break;
      if (c === BACKSLASH) return this.escapedString(start);
      if (c < 0x20) throw BAIL;
      hash = fnv(hash, c);
      p++;
    }
    this.p = p + 1;
    const length = p - start;
    if (length === 0) return '';
    if (length > CACHE_MAX_LENGTH) return asciiText(b, start, p);
    return (this.last[site] = this.cache.get(b, start, p, hash));
  }

  /** Rare: JSON.parse decodes the escapes of this one string exactly (or rejects them). */
  protected escapedString(start: number): string {
    const b = this.b;
    let p = start;
    for (;;) {
      if (p >= this.end) throw BAIL;
      const c = b[p];
      if (c === QUOTE) break;
      if (c < 0x20) throw BAIL;
      p += c === BACKSLASH ? 2 : 1;
    }
    this.p = p + 1;
    try {
      return JSON.parse(asciiText(b, start - 1, p + 1)) as string;
    } catch {
      throw BAIL;
    }
  }

  /** A JSON number, validated by the grammar; small integers without a string. */
  protected number(): number {
    const b = this.b;
    const start = this.p;
    let p = start;
    if (b[p] === MINUS) p++;
    let value = 0;
    const first = b[p];
    if (first === ZERO) p++;
    else if (first > ZERO && first <= NINE) {
      while (b[p] >= ZERO && b[p] <= NINE) value = value * 10 + (b[p++] - ZERO);
    } else throw BAIL;
    let plain = p - start <= 15;
    if (b[p] === DOT) {
      p++;
      if (!(b[p] >= ZERO && b[p] <= NINE)) throw BAIL;
      while (b[p] >= ZERO && b[p] <= NINE) p++;
      plain = false;
    }
    if (b[p] === 0x65 || b[p] === 0x45) {
      p++;
      if (b[p] === PLUS || b[p] === MINUS) p++;
      if (!(b[p] >= ZERO && b[p] <= NINE)) throw BAIL;
      while (b[p] >= ZERO && b[p] <= NINE) p++;
      plain = false;
    }
    if (p > this.end) throw BAIL;
    this.p = p;
    if (plain) return b[start] === MINUS ? -value : value;
    return Number(asciiText(b, start, p));
  }

  protected boolean(): boolean {
    if (this.literal('true')) return true;
    if (this.literal('false')) return false;
    throw BAIL;
  }

  protected literal(word: string): boolean {
    const b = this.b;
    for (let i = 0; i < word.length; i++) if (b[this.p + i] !== word.charCodeAt(i)) return false;
    if (this.p + word.length > this.end) return false;
    this.p += word.length;
    return true;
  }

  /** Any value, checked against the JSON grammar and dropped. */
  protected skipValue(): void {
    const c = this.b[this.p];
    if (c >= ZERO && c <= NINE) this.number();
    else if (c === QUOTE) this.skipString();
    else if (c === OPEN_BRACE) {
      if (this.enter(OPEN_BRACE)) {
        do {
          this.key(NO_KEYS);
          this.skipValue();
        } while (this.next(CLOSE_BRACE));
      }
    } else if (c === OPEN_BRACKET) {
      if (this.enter(OPEN_BRACKET))
        do this.skipValue();
        while (this.next(CLOSE_BRACKET));
    } else if (c === MINUS || (c >= ZERO && c <= NINE)) this.number();
    else if (!(this.literal('true') || this.literal('false') || this.literal('null'))) throw BAIL;
  }

  protected skipString(): void {
    const b = this.b;
    let p = this.p + 1;
    for (;;) {
      if (p >= this.end) throw BAIL;
      const c = b[p];
      if (c === QUOTE) break;
      if (c === BACKSLASH) {
        this.escapedString(this.p + 1);
        return;
      }
      if (c < 0x20) throw BAIL;
      p++;
    }
    this.p = p + 1;
  }
}
