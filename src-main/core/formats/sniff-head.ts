import type { ByteSource } from '../bytes/byte-source';

/** How many bytes of a file sniffing sees. */
export const SNIFF_BYTES = 64 * 1024;

/** How far a 'first-line' sniff reads on for the first line's end (then sees what it has). */
export const SNIFF_LINE_MAX_BYTES = 4 * 1024 * 1024;

/**
 * What sniffing sees of a file: the first SNIFF_BYTES (`bytes`), and, for a format whose
 * descriptor sets `sniffReach: 'first-line'` (JSON lines whose first record may be longer than
 * the head: SGLang's request metrics carry the prompt), the head read on until its first line
 * ends, at most SNIFF_LINE_MAX_BYTES. That longer read is made only when such a format asks
 * and the head holds no line end, once per file, so other files cost no more than the head.
 */
export interface SniffHead {
  readonly bytes: Uint8Array;
  /** the head, or more of the file up to and with its first newline when the head has none */
  throughFirstLine(): Uint8Array;
}

/**
 * The sniff head of a file whose first `length` bytes `readFirst(length)` gives (from where
 * sniffing starts: opening skips leading whitespace; a gzip file's are its inflated bytes).
 */
export function sniffHeadOf(readFirst: (length: number) => Uint8Array): SniffHead {
  const bytes = readFirst(SNIFF_BYTES);
  let longer: Uint8Array | undefined;
  return {
    bytes,
    throughFirstLine() {
      longer ??= readThroughFirstLine(bytes, readFirst);
      return longer;
    },
  };
}

/** The sniff head of a source from byte `from` on. */
export function sniffHeadAt(source: ByteSource, from = 0): SniffHead {
  return sniffHeadOf((length) => source.read(from, length));
}

/** A head given as bytes (a test, a caller that has only them): no read past them. */
export function fixedSniffHead(bytes: Uint8Array): SniffHead {
  return { bytes, throughFirstLine: () => bytes };
}

function readThroughFirstLine(
  head: Uint8Array,
  readFirst: (length: number) => Uint8Array,
): Uint8Array {
  // a line end in the head, or the whole file in it: nothing more to read
  if (head.indexOf(0x0a) >= 0 || head.length < SNIFF_BYTES) return head;
  // doubling reads, so a 100 KB line reads 256 KiB, not the bound
  let seen = head;
  for (let length = SNIFF_BYTES * 4; ; length = Math.min(length * 2, SNIFF_LINE_MAX_BYTES)) {
    const more = readFirst(length);
    const newline = more.indexOf(0x0a, seen.length);
    if (newline >= 0) return more.subarray(0, newline + 1);
    if (more.length < length || length >= SNIFF_LINE_MAX_BYTES) return more;
    seen = more;
  }
}
