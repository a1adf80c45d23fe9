import { FlateErrorCode, Gunzip } from 'fflate';
import type { ByteSource } from './byte-source';
import { FormatError } from './format-error';

/**
 * How far a gzip file may inflate: at most this many times its compressed size (deflate's
 * best case is about 1032:1, real traces 5-30:1), so a gzip bomb is refused before it takes
 * the machine's memory. Small files may always inflate to INFLATE_FLOOR_BYTES.
 */
export const MAX_INFLATE_RATIO = 200;
export const INFLATE_FLOOR_BYTES = 64 * 1024 * 1024;
/**
 * The most one gzip file may inflate to, whatever its size: the inflated bytes are held while
 * the file is read, so a 14.3 MB file inflating 140 times (under the ratio) took 2.2 GB against
 * the README's bound of 16 times the file + 256 MiB (issue 49). Larger ones are refused with a
 * message that says to gunzip them: opened uncompressed, the bound is that of their own size.
 */
export const MAX_INFLATED_BYTES = 1024 * 1024 * 1024;
/**
 * Past a few megabytes, the inflated bytes held stay within README's bound (16 times the file +
 * 256 MiB) less room for the open itself: a trailer's stated size cannot raise it, since a
 * trailer can lie (or state only the last of several members), and a 14 MB file that states
 * little yet inflates 140 times was held to 1 GiB.
 */
export const BOUND_RATIO = 16;
export const BOUND_EXTRA_BYTES = 96 * 1024 * 1024;
/** compressed bytes read and inflated per step: small, so one step inflates at most ~64 MiB */
const READ_CHUNK_BYTES = 64 * 1024;

export function isGzip(head: Uint8Array): boolean {
  return head.length >= 3 && head[0] === 0x1f && head[1] === 0x8b && head[2] === 0x08;
}

/** The inflated size a gzip file of `compressedBytes` may reach before it is refused. */
export function inflateLimit(compressedBytes: number): number {
  const ratio = Math.min(
    compressedBytes * MAX_INFLATE_RATIO,
    compressedBytes * BOUND_RATIO + BOUND_EXTRA_BYTES,
  );
  return Math.min(MAX_INFLATED_BYTES, Math.max(INFLATE_FLOOR_BYTES, ratio));
}

/**
 * `source` itself, or, when it is gzip (by its magic bytes, not its name), its inflated bytes
 * as a ByteSource, so that sniffing and every format read the content. Inflated by streaming
 * in 64 KiB steps and kept as the chunks fflate hands out (not copied into one array), so memory
 * is the inflated size once. The result has no `path`: nothing may re-read the file on disk
 * by offsets of the inflated bytes (a helper thread, lazy values). A file cut short gives the
 * bytes inflated before the cut, marked `cutShort`; a corrupt one is gzip/corrupt.
 */
export function gunzipIfGzip(
  source: ByteSource,
  limit: number = inflateLimit(source.size),
): ByteSource {
  if (!isGzip(source.read(0, 3))) return source;
  const tooLarge = (what: string) =>
    new FormatError(
      'gzip/too-large',
      `${what} ${limit} bytes (${MAX_INFLATE_RATIO} times its compressed size, and at most ${BOUND_RATIO} times plus ${BOUND_EXTRA_BYTES}; at least ${INFLATE_FLOOR_BYTES}, at most ${MAX_INFLATED_BYTES}): refused as too large to inflate in memory; gunzip it and open the inflated file`,
    );
  // the size gzip's trailer states (modulo 4 GiB, of the last member). One that says the file
  // is too large stops the inflating at 64 MiB instead of at the limit, so that the bytes held
  // before the refusal stay small; not at once, since a file cut short ends in bytes of its
  // stream, not its trailer (it must read as corrupt). One that lies is caught at the limit.
  const stated = statedSize(source);
  const stopAt = stated > limit ? Math.min(limit, INFLATE_FLOOR_BYTES) : limit;
  const from = source.path === undefined ? {} : { gzipPath: source.path };
  const chunks: Uint8Array[] = [];
  let total = 0;
  const gunzip = new Gunzip((chunk) => {
    total += chunk.length;
    if (total > stopAt) {
      throw tooLarge(
        stopAt < limit
          ? `the file states it inflates to ${stated} bytes (and inflates past ${stopAt}), past`
          : 'the file inflates past',
      );
    }
    if (chunk.length > 0) chunks.push(chunk);
  });
  let offset = 0;
  try {
    while (offset < source.size) {
      const part = source.read(offset, READ_CHUNK_BYTES);
      if (part.length === 0) break;
      offset += part.length;
      gunzip.push(part, offset >= source.size);
    }
  } catch (error) {
    if (error instanceof FormatError) throw error;
    // cut short (its stream ends before its end block): what inflated before the cut is read,
    // as zcat prints it before "unexpected end of file"; formats that can say so name the cut
    if (isUnexpectedEnd(error) && total > 0) {
      return { ...chunkedSource(source.name, chunks, total), cutShort: source.size, ...from };
    }
    throw new FormatError(
      'gzip/corrupt',
      `not a readable gzip file: ${(error as Error).message}`,
      offset,
    );
  }
  return { ...chunkedSource(source.name, chunks, total), ...from };
}

/**
 * Like gunzipIfGzip, but a gzip file is inflated on its first read (or its size asked), not
 * now, and `release` lets its bytes go: the files of a group after its first (a GPU profile's
 * ranks) are inflated one at a time as they are read, or by the helper thread that reads one
 * (by `gzipPath`), rather than all of them, at once, before the first is read.
 */
export function gunzipWhenRead(
  source: ByteSource,
  limit: number = inflateLimit(source.size),
): ByteSource {
  if (!isGzip(source.read(0, 3))) return source;
  let inflated: ByteSource | null = null;
  // what the last inflating found (kept past `release`)
  let knownSize: number | null = null;
  let knownCut: number | undefined;
  const bytes = () => {
    if (inflated === null) {
      inflated = gunzipIfGzip(source, limit);
      knownSize = inflated.size;
      knownCut = inflated.cutShort;
    }
    return inflated;
  };
  const stated = statedSize(source);
  return {
    name: source.name,
    ...(source.path === undefined ? {} : { gzipPath: source.path }),
    get size() {
      return bytes().size;
    },
    // where its stream ends early, once inflated (a file only a helper read: undefined here)
    get cutShort() {
      return knownCut;
    },
    get statedSize() {
      return knownSize ?? stated;
    },
    read: (offset, length, into) => bytes().read(offset, length, into),
    release() {
      inflated = null;
    },
  };
}

/**
 * The inflated size a gzip file's trailer states (modulo 4 GiB, of its last member), or 0 for a
 * file too short to have one.
 */
function statedSize(source: ByteSource): number {
  if (source.size < 18) return 0;
  const trailer = source.read(source.size - 4, 4);
  return (trailer[0] | (trailer[1] << 8) | (trailer[2] << 16)) + trailer[3] * 2 ** 24;
}

/** fflate's error for a stream that ends before its last block */
function isUnexpectedEnd(error: unknown): boolean {
  return (error as { code?: unknown } | null)?.code === FlateErrorCode.UnexpectedEOF;
}

/** A ByteSource over consecutive chunks: reads inside one chunk are views, others copies. */
function chunkedSource(name: string, chunks: Uint8Array[], size: number): ByteSource {
  const starts = new Float64Array(chunks.length);
  let at = 0;
  chunks.forEach((chunk, k) => {
    starts[k] = at;
    at += chunk.length;
  });
  /** the chunk holding byte `offset` (binary search over starts) */
  const chunkAt = (offset: number): number => {
    let lo = 0;
    let hi = chunks.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (starts[mid] <= offset) lo = mid;
      else hi = mid - 1;
    }
    return lo;
  };
  return {
    name,
    size,
    read(offset, length) {
      const start = Math.max(0, Math.min(offset, size));
      const end = Math.max(start, Math.min(offset + length, size));
      if (end === start) return new Uint8Array(0);
      let k = chunkAt(start);
      const from = start - starts[k];
      if (from + (end - start) <= chunks[k].length) {
        return chunks[k].subarray(from, from + (end - start));
      }
      const out = new Uint8Array(end - start);
      let done = 0;
      let inChunk = from;
      while (done < out.length) {
        const piece = chunks[k].subarray(inChunk, inChunk + (out.length - done));
        out.set(piece, done);
        done += piece.length;
        k++;
        inChunk = 0;
      }
      return out;
    },
  };
}

/**
 * The first `maxBytes` inflated bytes of a gzip file whose first bytes are `head` (for sniffing
 * a folder's files without reading them whole); `head` itself when it is not gzip; what could
 * be inflated when the head is corrupt. Never throws.
 */
export function gunzipHead(head: Uint8Array, maxBytes: number): Uint8Array {
  if (!isGzip(head)) return head;
  const out = new Uint8Array(maxBytes);
  let length = 0;
  const enough = new Error('enough');
  const gunzip = new Gunzip((chunk) => {
    const piece = chunk.subarray(0, maxBytes - length);
    out.set(piece, length);
    length += piece.length;
    if (length >= maxBytes) throw enough;
  });
  try {
    for (let at = 0; at < head.length; at += 4096) gunzip.push(head.subarray(at, at + 4096));
  } catch {
    // enough inflated, or the head is corrupt: sniff what there is
  }
  return out.subarray(0, length);
}
