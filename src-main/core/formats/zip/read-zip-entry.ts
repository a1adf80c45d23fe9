import { inflateSync } from 'fflate';
import { bytesSource, type ByteSource } from '../../bytes/byte-source';
import { FormatError } from '../../bytes/format-error';
import { entryDataOffset, type ZipEntry } from './read-zip-directory';

const MAX_INFLATED_BYTES = 2 ** 31 - 1;
/**
 * The memory bound for a deflated entry, which is inflated whole: at most this many times its
 * compressed size plus a floor. Deflate can reach 1032:1, so a 2 MB entry claiming 2 GB is
 * possible bytes-wise, but it is a bomb, not a dump (pickled traces compress about 5-15:1).
 */
export const MAX_INFLATE_RATIO = 16;
export const INFLATE_FLOOR_BYTES = 64 * 1024 * 1024;

/** A readable view of one entry: stored entries are ranges of the file, read lazily. */
export interface EntryView {
  source: ByteSource;
  /** absolute offset in the file of the entry's first byte (stored entries only) */
  fileOffset: number | null;
}

/**
 * Stored entries (torch's default) are read by range straight from the file, never copied
 * whole; a deflated entry (a re-zipped dump) is inflated into memory.
 */
export function openZipEntry(source: ByteSource, entry: ZipEntry): EntryView {
  const start = entryDataOffset(source, entry);
  if (entry.method === 0) {
    const size = entry.size;
    return {
      fileOffset: start,
      source: {
        name: `${source.name}:${entry.name}`,
        size,
        read: (offset, length, into) => {
          const from = Math.max(0, Math.min(offset, size));
          return source.read(start + from, Math.max(0, Math.min(length, size - from)), into);
        },
      },
    };
  }
  if (entry.method === 8) {
    // The declared size sizes the output buffer: refuse claims a real dump never makes.
    const limit = Math.min(
      MAX_INFLATED_BYTES,
      entry.compressedSize * MAX_INFLATE_RATIO + INFLATE_FLOOR_BYTES,
    );
    if (entry.size > limit) {
      throw new FormatError(
        'zip/inflate-too-large',
        `entry ${entry.name} claims ${entry.size} bytes when inflated from ` +
          `${entry.compressedSize}: more than ${MAX_INFLATE_RATIO} times plus 64 MiB`,
        start,
      );
    }
    let inflated: Uint8Array;
    try {
      inflated = inflateSync(source.read(start, entry.compressedSize), {
        out: new Uint8Array(entry.size),
      });
    } catch (error) {
      throw new FormatError(
        'zip/inflate-failed',
        `entry ${entry.name} does not inflate: ${(error as Error).message}`,
        start,
      );
    }
    return { fileOffset: null, source: bytesSource(entry.name, inflated) };
  }
  throw new FormatError(
    'zip/unsupported-method',
    `entry ${entry.name} uses compression method ${entry.method}`,
    entry.localHeaderOffset,
  );
}
