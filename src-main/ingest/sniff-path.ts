import { basename } from 'node:path';
import { openFileSource, type FileByteSource } from '../core/bytes/file-source';
import { FormatError } from '../core/bytes/format-error';
import { gunzipHead } from '../core/bytes/gunzip-source';
import { sniffFormat, sniffHeadOf } from '../core/formats/registry';

/** The id of the format a file's content is (gzipped or not), or why it is not a trace. */
export function sniffPath(path: string): string | { reason: string } {
  let file: FileByteSource;
  try {
    // refuses FIFOs and devices at once: a blocking open of a pipe would hang the listing
    file = openFileSource(path);
  } catch (error) {
    if (error instanceof FormatError) return { reason: error.message };
    return { reason: `cannot be read (${(error as NodeJS.ErrnoException).code ?? 'error'})` };
  }
  try {
    if (file.size === 0) return { reason: 'empty' };
    // a gzip file's inflated head; past 64 KiB only for a format that sniffs a whole first line
    const head = sniffHeadOf((length) => gunzipHead(file.read(0, length), length));
    return sniffFormat(head, basename(path))?.id ?? { reason: 'not a trace this app reads' };
  } catch (error) {
    return { reason: error instanceof Error ? error.message : String(error) };
  } finally {
    file.close();
  }
}
