import type { ByteSource } from '../../bytes/byte-source';
import { FormatError } from '../../bytes/format-error';
import { AsciiStringCache, FNV_START, asciiText, fnv } from '../../bytes/ascii-string-cache';

const WINDOW = 8 * 1024 * 1024;
/** bytes before the read position a new window starts with (PickleCursor.ensure) */
const KEPT_BEHIND = 4096;

/** a TextDecoder('utf-8') (core has no DOM types to name it by) */
export interface Utf8Decoder {
  decode(bytes: Uint8Array): string;
}

/**
 * Reads a pickle stream through a sliding window of its source, so a multi-gigabyte data.pkl
 * (token lists are pickled ints) never sits in memory whole.
 */
export class PickleCursor {
  /**
   * the bytes read in, from `windowStart`: read (never written) by the reader's loop over its
   * common opcodes, which moves `pos` itself (readPickle)
   */
  window: Uint8Array = new Uint8Array(0);
  /**
   * the buffer windows are read into, once one was read: a fresh 8 MB buffer per window, freed
   * soon after, left the allocator's arenas fragmented (about 100 MB of a 100k-sample open's
   * resident memory when two threads read one dump)
   */
  private buffer: Uint8Array | undefined;
  /** the window as a DataView (big-endian floats) */
  view: DataView = new DataView(new ArrayBuffer(0));
  /** position of window[0] in the source */
  windowStart = 0;
  /** position in window */
  pos = 0;

  constructor(
    readonly source: ByteSource,
    start: number,
    /** absolute file offset of the source's byte 0 (for lazy ranges), or null */
    readonly fileOffset: number | null,
  ) {
    this.windowStart = start;
  }

  /** position in the source */
  get offset(): number {
    return this.windowStart + this.pos;
  }

  /** Makes n bytes available at pos; throws a truncation error at the end of the source. */
  ensure(n: number): void {
    if (this.pos + n <= this.window.length) return;
    const at = this.offset;
    if (at + n > this.source.size) {
      throw new FormatError(
        'pickle/truncated',
        'the pickle ends early: the file is truncated or corrupt',
        this.abs(this.source.size),
      );
    }
    // the last bytes before `at` are read again at the next window's start: a reader that
    // looked past the window's end and then goes back (a run of numbers too short for a lazy
    // list, read again one at a time) finds them there instead of reading a window again
    const behind = Math.min(this.pos, KEPT_BEHIND);
    const length = Math.max(n + behind, WINDOW);
    const read = this.source.read(at - behind, length, this.buffer);
    // a plain Uint8Array view: subarrays of a Node Buffer are slower to make (FastBuffer)
    const chunk = new Uint8Array(read.buffer, read.byteOffset, read.byteLength);
    // a pickle longer than a window: the next ones are read into a buffer of ours (a source
    // that reads from memory ignores it)
    if (this.buffer === undefined && read.byteLength === WINDOW)
      this.buffer = new Uint8Array(WINDOW);
    this.window = chunk;
    this.view = new DataView(chunk.buffer, chunk.byteOffset, chunk.byteLength);
    this.windowStart = at - behind;
    this.pos = behind;
  }

  /** Moves to `sourceOffset` (a position read before): within the window, or a fresh window. */
  seek(sourceOffset: number): void {
    if (sourceOffset >= this.windowStart && sourceOffset <= this.windowStart + this.window.length) {
      this.pos = sourceOffset - this.windowStart;
      return;
    }
    this.windowStart = sourceOffset;
    this.window = new Uint8Array(0);
    this.view = new DataView(new ArrayBuffer(0));
    this.pos = 0;
  }

  /**
   * A run of opcodes read straight off the window (readPickle's commonOps, skipItem's walk)
   * reached the window's end at `pos`: the next window, from there, with every opcode of at
   * most 9 bytes that starts at least 9 bytes before its end whole in it. False, with the
   * cursor at `pos`, when the source has fewer than 9 bytes left: the run's caller reads
   * those an opcode at a time.
   */
  nextRunWindow(pos: number): boolean {
    this.pos = pos;
    if (this.source.size - this.offset < 9) return false;
    this.ensure(9);
    return true;
  }

  /** The next byte without reading it, or -1 at the end of the source. */
  peekU8(): number {
    if (this.pos >= this.window.length) {
      if (this.offset >= this.source.size) return -1;
      this.ensure(1);
    }
    return this.window[this.pos];
  }

  /** Whether the last scanNumbers met a float that is not a whole number. */
  scannedFraction = false;

  /**
   * Skips a run of number opcodes (BININT1, BININT2, BININT, BINFLOAT) and says how many there
   * were, stopping before the first other opcode. Token lists are millions of these: counted
   * here they cost no stack slot, and no heap number for each float.
   */
  scanNumbers(): number {
    let count = 0;
    let fraction = false;
    // locals, not fields, in the loop: it runs once per token
    let window = this.window;
    let view = this.view;
    let pos = this.pos;
    for (;;) {
      // every opcode that starts at or before `last` is whole in the window (at most 9 bytes):
      // the inner loop checks nothing else
      const last = window.length - 9;
      // each opcode's size from a table, not a chain of tests: token ids mix the three int
      // widths at random, and a branch mispredicted per token was most of the loop's time
      while (pos <= last) {
        const size = NUMBER_OP_SIZE[window[pos]];
        if (size === 0) break;
        if (size === 9 && !fraction && !Number.isInteger(view.getFloat64(pos + 1, false)))
          fraction = true;
        pos += size;
        count++;
      }
      if (pos <= last) break;
      // near the window's end: refill (at the source's end, take what is left) and read the
      // last opcodes one at a time, each checked to be whole
      this.pos = pos;
      const left = this.source.size - this.offset;
      if (left <= 0) break;
      this.ensure(Math.min(9, left));
      window = this.window;
      view = this.view;
      pos = this.pos;
      if (pos + 9 <= window.length) continue;
      const size = NUMBER_OP_SIZE[window[pos]];
      if (size === 0 || pos + size > window.length) break;
      if (size === 9 && !fraction && !Number.isInteger(view.getFloat64(pos + 1, false)))
        fraction = true;
      pos += size;
      count++;
    }
    this.pos = pos;
    this.scannedFraction = fraction;
    return count;
  }

  abs(sourceOffset: number): number {
    return (this.fileOffset ?? 0) + sourceOffset;
  }

  u8(): number {
    if (this.pos >= this.window.length) this.ensure(1);
    return this.window[this.pos++];
  }

  u16(): number {
    if (this.pos + 2 > this.window.length) this.ensure(2);
    const v = this.view.getUint16(this.pos, true);
    this.pos += 2;
    return v;
  }

  u32(): number {
    if (this.pos + 4 > this.window.length) this.ensure(4);
    const v = this.view.getUint32(this.pos, true);
    this.pos += 4;
    return v;
  }

  i32(): number {
    if (this.pos + 4 > this.window.length) this.ensure(4);
    const v = this.view.getInt32(this.pos, true);
    this.pos += 4;
    return v;
  }

  u64(): number {
    if (this.pos + 8 > this.window.length) this.ensure(8);
    const v = this.view.getBigUint64(this.pos, true);
    this.pos += 8;
    if (v > BigInt(Number.MAX_SAFE_INTEGER)) {
      throw new FormatError(
        'pickle/too-large',
        'a length in the pickle is impossibly large',
        this.abs(this.offset - 8),
      );
    }
    return Number(v);
  }

  f64be(): number {
    if (this.pos + 8 > this.window.length) this.ensure(8);
    const v = this.view.getFloat64(this.pos, false);
    this.pos += 8;
    return v;
  }

  /** n bytes as a view (valid until the next read: the window's buffer is read into again) */
  bytes(n: number): Uint8Array {
    if (n > this.source.size - this.offset) {
      throw new FormatError(
        'pickle/truncated',
        `the pickle claims ${n} bytes that the file does not have`,
        this.abs(this.offset),
      );
    }
    this.ensure(n);
    const out = this.window.subarray(this.pos, this.pos + n);
    this.pos += n;
    return out;
  }

  /**
   * The next n bytes as UTF-8 text. Short ASCII strings (keys, names, ids) are hashed and
   * looked up where they lie in the window: no view made, no decoder call, and repeats (Python
   * pickles equal values of distinct str objects again and again) share one copy.
   */
  text(n: number, shortStrings: AsciiStringCache, decoder: Utf8Decoder): string {
    if (n > SHORT_TEXT) return decodeText(this.bytes(n), shortStrings, decoder);
    if (n > this.source.size - this.offset) this.bytes(n); // throws pickle/truncated
    this.ensure(n);
    const window = this.window;
    const start = this.pos;
    const end = start + n;
    this.pos = end;
    if (n >= ID_TEXT) {
      // ids (span, trace, session, request: 32 hex digits) are new strings nearly every time:
      // a look-up in the table only missed, at the cost of a cache miss or two each
      for (let i = start; i < end; i++)
        if (window[i] > 0x7f) return decoder.decode(window.subarray(start, end));
      return asciiText(window, start, end);
    }
    const hash = asciiHash(window, start, end);
    if (hash >= 0) return shortStrings.get(window, start, end, hash);
    return decoder.decode(window.subarray(start, end));
  }

  /**
   * n bytes at a position read before, without moving: from the window when they are in it,
   * else read from the source (a copy).
   */
  peekAt(sourceOffset: number, n: number): Uint8Array {
    const from = sourceOffset - this.windowStart;
    if (from >= 0 && from + n <= this.window.length) return this.window.subarray(from, from + n);
    if (sourceOffset < 0 || n < 0 || sourceOffset + n > this.source.size)
      throw new FormatError(
        'pickle/truncated',
        `the pickle claims ${n} bytes that the file does not have`,
        this.abs(sourceOffset),
      );
    const read = this.source.read(sourceOffset, n);
    return new Uint8Array(read.buffer, read.byteOffset, read.byteLength);
  }

  /** bytes up to and excluding the next newline (text opcodes of protocol 0) */
  line(): string {
    let out = '';
    for (let guard = 0; guard < 1 << 20; guard++) {
      const c = this.u8();
      if (c === 0x0a) return out;
      out += String.fromCharCode(c);
    }
    throw new FormatError(
      'pickle/line-too-long',
      'a text opcode has no end of line',
      this.abs(this.offset),
    );
  }
}

/** the size of each number opcode (BININT 5, BININT2 3, BININT1 2, BINFLOAT 9), 0 for others */
const NUMBER_OP_SIZE = new Uint8Array(256);
NUMBER_OP_SIZE[0x4a] = 5;
NUMBER_OP_SIZE[0x4d] = 3;
NUMBER_OP_SIZE[0x4b] = 2;
NUMBER_OP_SIZE[0x47] = 9;

/** strings up to this many bytes are looked up in the AsciiStringCache when they are ASCII */
const SHORT_TEXT = 48;
/**
 * strings of at least this many bytes (and up to SHORT_TEXT) are made without the table: ids.
 * Dict keys, names and enum values are shorter, or memoized by the pickle and read once.
 */
const ID_TEXT = 32;

/** UTF-8 bytes as text: a short ASCII string through the cache, anything else decoded. */
/**
 * The memo index a BINGET or BINPUT (`short`: one byte) or a LONG_BINGET or LONG_BINPUT (four,
 * little-endian) at `pos` of `w` names: the fast loops read operands straight off the window.
 */
export function memoOperand(w: Uint8Array, pos: number, short: boolean): number {
  return short
    ? w[pos + 1]
    : (w[pos + 1] | (w[pos + 2] << 8) | (w[pos + 3] << 16) | (w[pos + 4] << 24)) >>> 0;
}

export function decodeText(
  bytes: Uint8Array,
  shortStrings: AsciiStringCache,
  decoder: Utf8Decoder,
): string {
  const hash = bytes.length <= SHORT_TEXT ? asciiHash(bytes, 0, bytes.length) : -1;
  if (hash >= 0) return shortStrings.get(bytes, 0, bytes.length, hash);
  return decoder.decode(bytes);
}

/** The FNV-1a hash of bytes [start, end) (unsigned) when they are all ASCII, else -1. */
function asciiHash(bytes: Uint8Array, start: number, end: number): number {
  let hash = FNV_START;
  for (let i = start; i < end; i++) {
    const b = bytes[i];
    if (b > 0x7f) return -1;
    hash = fnv(hash, b);
  }
  return hash >>> 0;
}
