import { createWriteStream, fstatSync, openSync, rmSync } from 'node:fs';
import { once } from 'node:events';
import { createGzip } from 'node:zlib';
import type { Writable } from 'node:stream';

/**
 * Writes text chunks to a file ('-': stdout) as they are made, gzipped on the way when asked,
 * waiting whenever the stream is full: an export of 100k samples never exists as one string.
 * A failure is said in words with a code (not a raw errno text), and removes the file begun.
 */
export async function writeChunks(
  chunks: Iterable<string>,
  output: string,
  gzip: boolean,
): Promise<void> {
  let target: Writable;
  /** a regular file this export made or emptied: removed after a failure (not /dev/full) */
  let removable = false;
  if (output === '-') {
    target = process.stdout;
  } else {
    // opened first, so a missing folder or a refused file is said before anything is made
    let fd: number;
    try {
      fd = openSync(output, 'w');
      removable = fstatSync(fd).isFile();
    } catch (error) {
      throw writeError(output, error);
    }
    target = createWriteStream('', { fd });
  }
  let failure: unknown = null;
  target.on('error', (error) => {
    failure = error;
  });
  try {
    const sink: Writable = gzip ? createGzip() : target;
    const piped = gzip ? pipeTo(sink, target) : null;
    for (const chunk of chunks) {
      if (failure) throw failure;
      if (!sink.write(chunk)) await once(sink, 'drain');
    }
    if (output === '-' && !gzip) return;
    sink.end();
    await (piped ?? once(target, 'finish'));
    if (failure) throw failure;
  } catch (error) {
    // no half export is left that looks like a whole one (what went to stdout stays written)
    if (target !== process.stdout) {
      target.destroy();
      if (removable) rmSync(output, { force: true });
    }
    throw writeError(output, failure ?? error);
  }
}

/** gzip -> file: resolves once the file holds every byte (stdout: once gzip has ended). */
function pipeTo(gzip: Writable, target: Writable): Promise<unknown> {
  (gzip as unknown as NodeJS.ReadableStream).pipe(target, { end: target !== process.stdout });
  return target === process.stdout ? once(gzip, 'end') : once(target, 'finish');
}

const WRITE_ERRORS: Record<string, [code: string, text: string]> = {
  ENOENT: ['export/no-folder', 'its folder does not exist'],
  ENOTDIR: ['export/no-folder', 'its folder does not exist'],
  EACCES: ['export/permission', 'permission denied'],
  EPERM: ['export/permission', 'permission denied'],
  EROFS: ['export/read-only', 'the disk is read-only'],
  ENOSPC: ['export/disk-full', 'the disk is full'],
  EDQUOT: ['export/disk-full', 'the disk quota is used up'],
  EISDIR: ['export/is-directory', 'it is a folder'],
};

/** A failure to write an export's file: its message is the one-line coded error printed. */
export class ExportWriteError extends Error {}

/** What went wrong writing `output`, in words with a code. */
export function writeError(output: string, error: unknown): Error {
  const errno = (error as NodeJS.ErrnoException | null)?.code;
  if (errno === undefined) return error instanceof Error ? error : new Error(String(error));
  const [code, text] = WRITE_ERRORS[errno] ?? [
    'export/write-failed',
    `it could not be written (${errno})`,
  ];
  return new ExportWriteError(`cannot write ${output}: ${text} [${code}]`);
}
