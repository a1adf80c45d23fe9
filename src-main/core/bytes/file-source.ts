import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import { basename } from 'node:path';
import type { ByteSource } from './byte-source';

/** A ByteSource over a file on disk, read by ranges with positional reads. */
export interface FileByteSource extends ByteSource {
  readonly path: string;
  close(): void;
}

export function openFileSource(path: string): FileByteSource {
  const fd = openSync(path, 'r');
  const size = fstatSync(fd).size;
  let closed = false;
  return {
    name: basename(path),
    path,
    size,
    read(offset, length) {
      const start = Math.max(0, Math.min(offset, size));
      const want = Math.max(0, Math.min(offset + length, size) - start);
      const out = Buffer.allocUnsafe(want);
      let done = 0;
      while (done < want) {
        const n = readSync(fd, out, done, want - done, start + done);
        if (n === 0) break;
        done += n;
      }
      return done === want ? out : out.subarray(0, done);
    },
    close() {
      if (!closed) closeSync(fd);
      closed = true;
    },
  };
}
