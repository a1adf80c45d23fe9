/**
 * JSON lines, shared by the formats that are one JSON value per line (a container, like zip/ or
 * pickle/: it names no format). The whole API:
 *
 *   const skipped = new LineSkips();
 *   for (const line of readJsonLines(source, skipped, { onProgress, shouldCancel })) {
 *     line.number; line.offset; line.value;          // 1-based number, byte offset, parsed JSON
 *     if (!isMine(line.value)) skipped.skip(line.number, 'no timestamp');   // the format's own reasons
 *   }
 *   skipped.counted();   // SkippedLines for FormatOpened.skippedLines
 *   skipped.notice();    // "3 lines skipped (first: line 2 not JSON)", or null: for notices
 *
 *   readLines(source, skipped, options)   the same walk without JSON.parse: each line's bytes,
 *                                         for a format that scans bytes itself (request metrics)
 *   sniffJsonLine(head, test)             sniff: the first non-blank line parsed, `test` asked
 *   bomLength(head)                       3 past a byte-order mark: for a sniff on bytes
 *   lineBuffer(bytes)                     one buffer for a set of files (oneBuffer)
 *   new LineSkips(20, wording)            more examples; each worded with its code and file
 *
 * The file is read in chunks and split on bytes (0x0A; a CR before it is dropped), never as one
 * string. A line is held only while it is read: one longer than `maxLineBytes` is skipped and
 * counted ("longer than 64 MiB") without being kept, so memory stays one chunk plus one bounded
 * line. Blank lines are passed over uncounted by readJsonLines. The last line without a newline
 * is read when it parses; a writer that crashed leaves a cut-off one, counted as skipped
 * ("cut off (no newline at the end, not JSON)"); readLines marks it `terminated: false`. A UTF-8
 * byte-order mark before the first line is dropped (its offset is then 3).
 *
 * Sniffing: a descriptor whose first line may be longer than the 64 KiB sniff head (a record
 * that carries a whole prompt) sets `sniffReach: 'first-line'` (core/formats/sniff-head.ts):
 * its sniff then sees the head read on until the first line ends, within 4 MiB.
 */
import type { ByteSource } from '../../bytes/byte-source';
import { FormatError } from '../../bytes/format-error';
import { LineSkips } from './line-skips';

export { LineSkips, type SkipWording } from './line-skips';

/**
 * One line: its bytes without the newline (or CR LF), a view into the chunk read. A Buffer, for
 * its indexOf (memchr; a Uint8Array's is a loop, 2x slower on long lines); its slice() is a view
 * too: copy with `new Uint8Array(bytes)` to keep bytes past the chunk (and with `oneBuffer`, past
 * the next line).
 */
export interface TextLine {
  /** 1-based line number in its file (in the range read) */
  number: number;
  /** byte offset of the line's first byte in the source */
  offset: number;
  bytes: Buffer;
  /** false for a last line with no newline after it (possibly cut off) */
  terminated: boolean;
}

/** One line parsed as JSON. */
export interface JsonLine {
  number: number;
  offset: number;
  value: unknown;
}

export interface LineReadOptions {
  /** lines longer than this are skipped and counted, never held (default MAX_LINE_BYTES) */
  maxLineBytes?: number;
  /** bytes read so far (from `from`), after each chunk */
  onProgress?: (bytesRead: number) => void;
  /** asked before each chunk: true ends the walk with FormatError 'open/cancelled' */
  shouldCancel?: () => boolean;
  /** a part of the file that starts and ends at line starts (default: all of it) */
  from?: number;
  to?: number;
  /** bytes read at a time (default 4 MiB) */
  chunkBytes?: number;
  /**
   * every chunk read into one buffer: a line's bytes hold only until the next line is asked
   * for (parse, decode or copy them first). A fresh buffer a read leaves memory to when the
   * collector gets to them: at 250 MB of request metrics the peak was 0.73x the files. `true`:
   * a buffer of a chunk (no larger than the range); a Buffer: that one, so that the files of a
   * set are read through one (see `lineBuffer`).
   */
  oneBuffer?: boolean | Buffer;
}

/** The default bound on one line: far above a real record, far below V8's string limit. */
export const MAX_LINE_BYTES = 64 * 1024 * 1024;
const CHUNK_BYTES = 4 * 1024 * 1024;
const NEWLINE = 0x0a;
const CR = 0x0d;

/** Every line of `source` (or of [from, to)), split on bytes; see the header for the rules. */
export function* readLines(
  source: ByteSource,
  skipped: LineSkips,
  options: LineReadOptions = {},
): Generator<TextLine> {
  const maxLineBytes = options.maxLineBytes ?? MAX_LINE_BYTES;
  const chunkBytes = options.chunkBytes ?? CHUNK_BYTES;
  const from = options.from ?? 0;
  const to = Math.min(options.to ?? source.size, source.size);
  const scratch =
    options.oneBuffer === true
      ? lineBuffer(to - from, chunkBytes)
      : options.oneBuffer instanceof Buffer
        ? options.oneBuffer
        : undefined;
  // a line split over chunks: its pieces, joined at its end
  let pieces: Uint8Array[] = [];
  let pieceBytes = 0;
  let lineStart = from;
  // the current line grew past the bound: its bytes are dropped until its newline
  let tooLong = false;
  let number = 0;
  let offset = from;
  const overBound = () => `longer than ${describeBytes(maxLineBytes)} (not read)`;
  const line = (bytes: Buffer, terminated: boolean): TextLine => {
    const text = dropCr(bytes);
    // a byte-order mark before the first line (Windows tools write one): not the line's
    return number === 1 && lineStart === 0 && bomLength(text) > 0
      ? { number, offset: 3, bytes: text.subarray(3), terminated }
      : { number, offset: lineStart, bytes: text, terminated };
  };
  while (offset < to) {
    if (options.shouldCancel?.()) throw new FormatError('open/cancelled', 'opening was cancelled');
    const chunk = asBuffer(source.read(offset, Math.min(chunkBytes, to - offset), scratch));
    if (chunk.length === 0) break;
    const chunkOffset = offset;
    offset += chunk.length;
    let start = 0;
    for (let nl = chunk.indexOf(NEWLINE); nl >= 0; nl = chunk.indexOf(NEWLINE, start)) {
      number++;
      const tail = chunk.subarray(start, nl);
      if (tooLong || pieceBytes + tail.length > maxLineBytes) {
        skipped.skip(number, overBound(), 'json-lines/too-long');
      } else {
        yield line(pieces.length === 0 ? tail : join(pieces, pieceBytes, tail), true);
      }
      pieces = [];
      pieceBytes = 0;
      tooLong = false;
      start = nl + 1;
      lineStart = chunkOffset + start;
    }
    if (start < chunk.length && !tooLong) {
      const rest = chunk.subarray(start);
      if (pieceBytes + rest.length > maxLineBytes) {
        tooLong = true;
        pieces = [];
        pieceBytes = 0;
      } else {
        // the next read writes over one buffer: its piece is copied (a Buffer's slice is a view)
        pieces.push(scratch ? new Uint8Array(rest) : rest);
        pieceBytes += rest.length;
      }
    }
    options.onProgress?.(offset - from);
  }
  if (tooLong) {
    skipped.skip(++number, overBound(), 'json-lines/too-long');
  } else if (pieceBytes > 0) {
    number++;
    yield line(join(pieces, pieceBytes, EMPTY), false);
  }
}

/**
 * A buffer for `oneBuffer` that holds a chunk of up to `bytes` (the largest file of a set): a
 * small file is not given a whole chunk's buffer.
 */
export function lineBuffer(bytes: number, chunkBytes = CHUNK_BYTES): Buffer {
  return Buffer.allocUnsafe(Math.max(0, Math.min(chunkBytes, bytes)));
}

/**
 * Every non-blank line of `source` parsed as JSON; a line that is not JSON is skipped and
 * counted ('not JSON', or 'cut off ...' for a last line with no newline).
 */
export function* readJsonLines(
  source: ByteSource,
  skipped: LineSkips,
  options: LineReadOptions = {},
): Generator<JsonLine> {
  const decoder = new TextDecoder();
  // each line is parsed before the next is read: one buffer serves every chunk
  for (const line of readLines(source, skipped, { oneBuffer: true, ...options })) {
    if (isBlank(line.bytes)) continue;
    let value: unknown;
    try {
      value = JSON.parse(decoder.decode(line.bytes));
    } catch {
      if (line.terminated) skipped.skip(line.number, 'not JSON', 'json-lines/not-json');
      else
        skipped.skip(
          line.number,
          'cut off (no newline at the end, not JSON)',
          'json-lines/cut-off',
        );
      continue;
    }
    yield { number: line.number, offset: line.offset, value };
  }
}

/**
 * A sniff for JSON lines: the head's first non-blank line parsed as JSON and handed to `test`
 * (the format's own check of its keys). False when that line is not JSON (or is cut off by the
 * head's end). Never throws.
 */
export function sniffJsonLine(head: Uint8Array, test: (value: unknown) => boolean): boolean {
  try {
    let start = 0;
    while (start < head.length) {
      let end = head.indexOf(NEWLINE, start);
      if (end < 0) end = head.length;
      const line = head.subarray(start, end);
      if (!isBlank(line)) {
        const text = new TextDecoder().decode(line).trim();
        if (!text.startsWith('{') && !text.startsWith('[')) return false;
        return test(JSON.parse(text));
      }
      start = end + 1;
    }
    return false;
  } catch {
    return false;
  }
}

const EMPTY = Buffer.alloc(0);

function asBuffer(bytes: Uint8Array): Buffer {
  return Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length);
}

function join(pieces: Uint8Array[], pieceBytes: number, tail: Uint8Array): Buffer {
  const out = Buffer.allocUnsafe(pieceBytes + tail.length);
  let at = 0;
  for (const piece of pieces) {
    out.set(piece, at);
    at += piece.length;
  }
  out.set(tail, at);
  return out;
}

/** 3 when `bytes` start with a UTF-8 byte-order mark, else 0: for a sniff that reads bytes. */
export function bomLength(bytes: Uint8Array): number {
  return bytes.length >= 3 && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? 3 : 0;
}

function dropCr(bytes: Buffer): Buffer {
  return bytes.length > 0 && bytes[bytes.length - 1] === CR ? bytes.subarray(0, -1) : bytes;
}

function isBlank(bytes: Uint8Array): boolean {
  for (const b of bytes) if (b !== 0x20 && b !== 0x09 && b !== 0x0d) return false;
  return true;
}

function describeBytes(n: number): string {
  if (n % (1024 * 1024) === 0) return `${n / (1024 * 1024)} MiB`;
  if (n % 1024 === 0) return `${n / 1024} KiB`;
  return `${n} bytes`;
}
