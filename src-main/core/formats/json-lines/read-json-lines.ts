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
 *                                         for a format that scans bytes itself
 *   sniffJsonLine(head, test)             sniff: the first non-blank line parsed, `test` asked
 *
 * The file is read in chunks and split on bytes (0x0A; a CR before it is dropped), never as one
 * string. A line is held only while it is read: one longer than `maxLineBytes` is skipped and
 * counted ("longer than 64 MiB") without being kept, so memory stays one chunk plus one bounded
 * line. Blank lines are passed over uncounted by readJsonLines. The last line without a newline
 * is read when it parses; a writer that crashed leaves a cut-off one, counted as skipped
 * ("cut off (no newline at the end, not JSON)"). A UTF-8 byte-order mark on the first line is
 * dropped.
 *
 * Sniffing: a descriptor whose first line may be longer than the 64 KiB sniff head (a record
 * that carries a whole prompt) sets `sniffReach: 'first-line'` (core/formats/sniff-head.ts):
 * its sniff then sees the head read on until the first line ends, within 4 MiB.
 */
import type { ByteSource } from '../../bytes/byte-source';
import { FormatError } from '../../bytes/format-error';
import type { SkippedLines } from '../../model/file-format';

/**
 * One line: its bytes without the newline (or CR LF), a view into the chunk read (chunks are
 * never reused, so a line kept stays as read; keep `slice()`s to let the chunk go).
 */
export interface TextLine {
  /** 1-based line number in its file (in the range read) */
  number: number;
  /** byte offset of the line's first byte in the source */
  offset: number;
  bytes: Uint8Array;
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
}

/** The default bound on one line: far above a real record, far below V8's string limit. */
export const MAX_LINE_BYTES = 64 * 1024 * 1024;
const CHUNK_BYTES = 4 * 1024 * 1024;
const MAX_EXAMPLES = 5;
const NEWLINE = 0x0a;
const CR = 0x0d;

/** Lines skipped while reading, counted, with the first few kept as examples. */
export class LineSkips {
  count = 0;
  readonly examples: { line: number; reason: string }[] = [];

  constructor(private readonly maxExamples = MAX_EXAMPLES) {}

  skip(line: number, reason: string): void {
    this.count++;
    if (this.examples.length < this.maxExamples) this.examples.push({ line, reason });
  }

  /** the count and examples, as FormatOpened.skippedLines carries them */
  counted(): SkippedLines {
    return { count: this.count, examples: [...this.examples] };
  }

  /** "3 lines skipped (first: line 2 not JSON)" for a format's notices, or null for none */
  notice(): string | null {
    if (this.count === 0) return null;
    const first = this.examples[0];
    return `${this.count} line${this.count === 1 ? '' : 's'} skipped (first: line ${first.line} ${first.reason})`;
  }
}

/** Every line of `source` (or of [from, to)), split on bytes; see the header for the rules. */
export function* readLines(
  source: ByteSource,
  skipped: LineSkips,
  options: LineReadOptions = {},
): Generator<TextLine> {
  const maxLineBytes = options.maxLineBytes ?? MAX_LINE_BYTES;
  const from = options.from ?? 0;
  const to = Math.min(options.to ?? source.size, source.size);
  // a line split over chunks: its pieces, joined at its end
  let pieces: Uint8Array[] = [];
  let pieceBytes = 0;
  let lineStart = from;
  // the current line grew past the bound: its bytes are dropped until its newline
  let tooLong = false;
  let number = 0;
  let offset = from;
  const overBound = () => `longer than ${describeBytes(maxLineBytes)} (not read)`;
  while (offset < to) {
    if (options.shouldCancel?.()) throw new FormatError('open/cancelled', 'cancelled');
    const chunk = source.read(offset, Math.min(CHUNK_BYTES, to - offset));
    if (chunk.length === 0) break;
    const chunkOffset = offset;
    offset += chunk.length;
    let start = 0;
    for (let nl = chunk.indexOf(NEWLINE); nl >= 0; nl = chunk.indexOf(NEWLINE, start)) {
      number++;
      const tail = chunk.subarray(start, nl);
      if (tooLong || pieceBytes + tail.length > maxLineBytes) {
        skipped.skip(number, overBound());
      } else {
        const bytes = pieces.length === 0 ? tail : join(pieces, pieceBytes, tail);
        yield { number, offset: lineStart, bytes: dropCr(bytes), terminated: true };
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
        pieces.push(rest);
        pieceBytes += rest.length;
      }
    }
    options.onProgress?.(offset - from);
  }
  if (tooLong) {
    skipped.skip(++number, overBound());
  } else if (pieceBytes > 0) {
    const bytes = join(pieces, pieceBytes, new Uint8Array(0));
    yield { number: ++number, offset: lineStart, bytes: dropCr(bytes), terminated: false };
  }
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
  for (const line of readLines(source, skipped, options)) {
    if (isBlank(line.bytes)) continue;
    let value: unknown;
    try {
      value = JSON.parse(decoder.decode(line.bytes));
    } catch {
      skipped.skip(
        line.number,
        line.terminated ? 'not JSON' : 'cut off (no newline at the end, not JSON)',
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
        const text = new TextDecoder().decode(dropCr(line)).trim();
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

function join(pieces: Uint8Array[], pieceBytes: number, tail: Uint8Array): Uint8Array {
  const out = new Uint8Array(pieceBytes + tail.length);
  let at = 0;
  for (const piece of pieces) {
    out.set(piece, at);
    at += piece.length;
  }
  out.set(tail, at);
  return out;
}

function dropCr(bytes: Uint8Array): Uint8Array {
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
