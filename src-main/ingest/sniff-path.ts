import { closeSync, openSync, readSync } from 'node:fs';
import { basename } from 'node:path';
import { gunzipHead } from '../core/bytes/gunzip-source';
import { SNIFF_BYTES, sniffFormat } from '../core/formats/registry';

/** The id of the format a file's content is, or why it is not a trace. */
export function sniffPath(path: string): string | { reason: string } {
  let fd: number;
  try {
    fd = openSync(path, 'r');
  } catch (error) {
    return { reason: `cannot be read (${(error as NodeJS.ErrnoException).code ?? 'error'})` };
  }
  try {
    const head = Buffer.allocUnsafe(SNIFF_BYTES);
    const length = readSync(fd, head, 0, SNIFF_BYTES, 0);
    if (length === 0) return { reason: 'empty' };
    return (
      sniffFormat(gunzipHead(head.subarray(0, length), SNIFF_BYTES), basename(path))?.id ?? {
        reason: 'not a trace this app reads',
      }
    );
  } finally {
    closeSync(fd);
  }
}
