import { closeSync, openSync, readSync, statSync } from 'node:fs';
import type { IngestSource } from './ingest-protocol';

/** A source's size in bytes: 0 for a path that cannot be read (its open says why). */
export function sourceSize(source: IngestSource): number {
  if (source.kind === 'bytes') return source.bytes.byteLength;
  try {
    return statSync(source.path).size;
  } catch {
    return 0;
  }
}

/**
 * Whether a source starts with gzip's magic bytes: it may inflate far past its size (up to the
 * reader's cap), so its size says little about the memory its open takes.
 */
export function isGzip(source: IngestSource): boolean {
  const head = new Uint8Array(2);
  if (source.kind === 'bytes') head.set(source.bytes.subarray(0, 2));
  else {
    try {
      const fd = openSync(source.path, 'r');
      try {
        readSync(fd, head, 0, 2, 0);
      } finally {
        closeSync(fd);
      }
    } catch {
      return false;
    }
  }
  return head[0] === 0x1f && head[1] === 0x8b;
}
