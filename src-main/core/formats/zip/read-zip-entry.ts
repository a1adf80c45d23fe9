import { inflateSync } from 'fflate';
import { bytesSource, type ByteSource } from '../../bytes/byte-source';
import { FormatError } from '../../bytes/format-error';
import { entryDataOffset, type ZipEntry } from './read-zip-directory';

const MAX_INFLATED_BYTES = 2 ** 31 - 1;

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
        read: (offset, length) => {
          const from = Math.max(0, Math.min(offset, size));
          return source.read(start + from, Math.max(0, Math.min(length, size - from)));
        },
      },
    };
  }
  if (entry.method === 8) {
    // The declared size sizes the output buffer: refuse claims a real dump never makes.
    if (entry.size > MAX_INFLATED_BYTES || entry.size > entry.compressedSize * 1100 + 1024) {
      throw new FormatError(
        'zip/inflate-too-large',
        `entry ${entry.name} claims ${entry.size} bytes when inflated`,
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
