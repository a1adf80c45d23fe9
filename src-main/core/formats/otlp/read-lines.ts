import type { ByteSource } from '../../bytes/byte-source';

const CHUNK = 8 * 1024 * 1024;

export interface Line {
  /** 1-based line number in its file */
  number: number;
  bytes: Uint8Array;
  /** false for a last line without a trailing newline */
  terminated: boolean;
}

/**
 * A file's lines read in chunks, split at the byte level (no whole-file string: V8's string
 * limit is under 1 GB). A line longer than a chunk is assembled from several reads. `from`
 * and `to` bound a part of the file that starts and ends at line starts; lines are numbered
 * from 1 within it and onChunk gets bytes read since `from`.
 */
export function* readLines(
  source: ByteSource,
  onChunk?: (bytesRead: number) => void,
  from = 0,
  to = source.size,
): Generator<Line> {
  let offset = from;
  let carry: Uint8Array | null = null;
  let number = 0;
  while (offset < to) {
    const chunk = source.read(offset, Math.min(CHUNK, to - offset));
    if (chunk.length === 0) break;
    offset += chunk.length;
    let start = 0;
    for (;;) {
      const nl = chunk.indexOf(0x0a, start);
      if (nl < 0) break;
      let bytes = chunk.subarray(start, nl);
      if (carry) {
        bytes = concat(carry, bytes);
        carry = null;
      }
      yield { number: ++number, bytes, terminated: true };
      start = nl + 1;
    }
    if (start < chunk.length)
      carry = carry ? concat(carry, chunk.subarray(start)) : chunk.slice(start);
    onChunk?.(offset - from);
  }
  if (carry && carry.length > 0) yield { number: ++number, bytes: carry, terminated: false };
}

function concat(a: Uint8Array, b: Uint8Array): Uint8Array {
  const out = new Uint8Array(a.length + b.length);
  out.set(a);
  out.set(b, a.length);
  return out;
}
