import { closeSync, constants, fstatSync, openSync, readSync } from 'node:fs';
import { basename } from 'node:path';
import type { ByteSource } from './byte-source';
import { FormatError } from './format-error';

/** A ByteSource over a file on disk, read by ranges with positional reads. */
export interface FileByteSource extends ByteSource {
  readonly path: string;
  close(): void;
}

/**
 * At most this many descriptors are open at once across all file sources of a thread: a
 * rotated set of 300 files or a run folder must not hit EMFILE (macOS allows 256 by default).
 * A source past the limit reopens its file when read; the least recently read one is closed.
 */
export const MAX_OPEN_FILES = 32;

interface PooledFile {
  fd: number | null;
}
const openFiles: PooledFile[] = [];

/** How many descriptors this thread's file sources hold open now. */
export function openDescriptorCount(): number {
  return openFiles.length;
}

function release(file: PooledFile): void {
  const at = openFiles.indexOf(file);
  if (at >= 0) openFiles.splice(at, 1);
  if (file.fd !== null) closeSync(file.fd);
  file.fd = null;
}

/**
 * Opens without blocking and refuses anything but a regular file: a FIFO named `x.pt` would
 * otherwise block the open (or the first read) forever, and a device never ends.
 */
function openRegularFile(path: string): { fd: number; size: number; modifiedMs: number } {
  const fd = openSync(path, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0));
  try {
    const stat = fstatSync(fd);
    if (stat.isDirectory()) throw new FormatError('io/is-directory', 'is a folder, not a file');
    if (!stat.isFile())
      throw new FormatError(
        'io/not-a-file',
        'is not a regular file (a pipe, socket or device): only files can be opened',
      );
    return { fd, size: stat.size, modifiedMs: stat.mtimeMs };
  } catch (error) {
    closeSync(fd);
    throw error;
  }
}

export function openFileSource(path: string): FileByteSource {
  const first = openRegularFile(path);
  const size = first.size;
  const file: PooledFile = { fd: first.fd };
  const admit = () => {
    while (openFiles.length >= MAX_OPEN_FILES) release(openFiles[0]);
    openFiles.push(file);
  };
  admit();
  let closed = false;
  const fd = (): number => {
    if (closed) throw new FormatError('io/closed', `${basename(path)} was closed`);
    if (file.fd === null) {
      const again = openRegularFile(path);
      file.fd = again.fd;
      admit();
    } else if (openFiles[openFiles.length - 1] !== file) {
      // most recently read last: eviction takes the least recently read
      openFiles.splice(openFiles.indexOf(file), 1);
      openFiles.push(file);
    }
    return file.fd!;
  };
  return {
    name: basename(path),
    path,
    size,
    modifiedMs: first.modifiedMs,
    read(offset, length, into) {
      const start = Math.max(0, Math.min(offset, size));
      const want = Math.max(0, Math.min(offset + length, size) - start);
      const out =
        into !== undefined && into.length >= want
          ? into.subarray(0, want)
          : Buffer.allocUnsafe(want);
      let done = 0;
      while (done < want) {
        const n = readSync(fd(), out, done, want - done, start + done);
        if (n === 0) break;
        done += n;
      }
      // every range asked for lies below the size seen at open: a short read means the file
      // shrank (truncated or rewritten while it is read)
      if (done < want)
        throw new FormatError(
          'io/file-changed',
          `${basename(path)} became shorter while it was read (${size} bytes at open)`,
          start + done,
        );
      return out;
    },
    close() {
      if (!closed) release(file);
      closed = true;
    },
  };
}
