import { basename } from 'node:path';
import { fieldName, type LazyValues, type SampleFieldPath } from '../core/api/trace-api';
import { bytesSource, type ByteSource } from '../core/bytes/byte-source';
import { openFileSource, type FileByteSource } from '../core/bytes/file-source';
import { FormatError } from '../core/bytes/format-error';
import { gunzipIfGzip } from '../core/bytes/gunzip-source';
import type { PyValue } from '../core/model/py-value';
import type { FormatDescriptor } from '../core/formats/format-descriptor';
import type { IngestSource } from './ingest-protocol';

/** Most values one request returns: enough for any real sample, bounded for hostile ones. */
const MAX_VALUES = 2_000_000;

/**
 * Token ids, log probs or tensor values of one sample field, as the file's format reads them
 * (capabilities.lazyValues): re-read from the file's bytes only now that a user asked.
 */
export function readLazyValues(
  format: FormatDescriptor,
  source: IngestSource,
  sample: PyValue | undefined,
  field: SampleFieldPath,
): LazyValues {
  if (!format.readLazyValues || sample === undefined) {
    throw new Error(`field ${fieldName(field)} holds no list of numbers`);
  }
  const read = format.readLazyValues(sample, field, (use) => withSource(source, use), MAX_VALUES);
  return { field, ...read };
}

/** Opens the source's bytes for `use` only (a details request: TraceSamples.read, lazy values). */
export function withSource<T>(source: IngestSource, use: (bytes: ByteSource) => T): T {
  // the byte ranges a format kept are offsets into the inflated bytes of a .gz
  if (source.kind === 'bytes') return use(gunzipIfGzip(bytesSource(source.name, source.bytes)));
  const file = reopenFileSource(source.path);
  try {
    return use(gunzipIfGzip(file));
  } finally {
    file.close();
  }
}

/**
 * The file of an open trace, opened again for a details request: one that was moved or deleted
 * since, or can no longer be read, says so as a coded error naming it, instead of the system's
 * ENOENT with the whole path, which read as a bug in the app.
 */
function reopenFileSource(path: string): FileByteSource {
  try {
    return openFileSource(path);
  } catch (error) {
    if (error instanceof FormatError) throw error;
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR')
      throw new FormatError(
        'io/file-gone',
        `${basename(path)} was moved or deleted after it was opened: open it again to see its samples`,
      );
    if (code === 'EACCES')
      throw new FormatError(
        'io/permission',
        `${basename(path)} can no longer be read (permission denied)`,
      );
    throw new FormatError('io/read-failed', `${basename(path)}: ${(error as Error).message}`);
  }
}
