/**
 * Random access to a file's bytes without holding the file in memory: readers ask for the
 * ranges they need (the ZIP directory says where `data.pkl` and each storage lie), so a dump
 * larger than one Node Buffer opens too. Synchronous on purpose: readers run in a worker.
 */
export interface ByteSource {
  readonly name: string;
  /** the file it reads, when it reads one: another thread may read part of it too */
  readonly path?: string;
  readonly size: number;
  /**
   * when the file was last modified, as seen when it was opened (a file's source): a file read
   * again later that was rewritten in place meanwhile, at the same size, tells by this
   */
  readonly modifiedMs?: number;
  /**
   * a gzip file cut short (a crashed writer, a partial copy): the bytes are what inflated
   * before its stream ended, at this byte of the file (its size); readers that can open what
   * came before a cut say so (gunzip-source.ts)
   */
  readonly cutShort?: number;
  /**
   * inflated bytes (gunzip-source.ts): the gzip file on disk they were inflated from, so that
   * a reader needing a few of them again later inflates the file anew rather than keeping them
   */
  readonly gzipPath?: string;
  /**
   * a gzip file inflated only once read (gunzipWhenRead): the inflated size, known without
   * inflating it (its trailer's, until it is inflated), for what only sums sizes
   */
  readonly statedSize?: number;
  /** lets go of the bytes it holds for reads (inflated ones): a later read makes them again */
  release?(): void;
  /**
   * bytes [offset, offset + length), clamped to the end of the source. `into`: a buffer the
   * caller is done with, which a source may read into and return part of when it is long
   * enough (a reader walking a file window by window then allocates no buffer per window).
   */
  read(offset: number, length: number, into?: Uint8Array): Uint8Array;
}

/**
 * `source`'s size for what only sums or compares sizes: a gzip file not inflated yet gives the
 * size its trailer states (statedSize) rather than being inflated to tell.
 */
export function sizeWithoutInflating(source: ByteSource): number {
  return source.statedSize ?? source.size;
}

export function bytesSource(name: string, bytes: Uint8Array): ByteSource {
  return {
    name,
    size: bytes.byteLength,
    read(offset, length) {
      const start = Math.max(0, Math.min(offset, bytes.byteLength));
      const end = Math.max(start, Math.min(offset + length, bytes.byteLength));
      return bytes.subarray(start, end);
    },
  };
}
