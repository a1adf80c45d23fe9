import type { LazyValues } from '../core/api/trace-api';
import { bytesSource, type ByteSource } from '../core/bytes/byte-source';
import { openFileSource } from '../core/bytes/file-source';
import type { LazyList, PyValue, TensorRef } from '../core/model/py-value';
import { readLazyList, readTensorValues } from '../core/formats/slime/read-slime-dump';
import type { IngestSource } from './ingest-protocol';

/** Most values one request returns: enough for any real sample, bounded for hostile ones. */
const MAX_VALUES = 2_000_000;

/**
 * Token ids, log probs or tensor values of one sample field, re-read from the file's bytes
 * only now that a user asked: they were kept as byte ranges when the file was opened.
 */
export function readLazyValues(
  source: IngestSource,
  sample: PyValue | undefined,
  field: string,
): LazyValues {
  const value =
    sample && typeof sample === 'object' ? (sample as Record<string, PyValue>)[field] : undefined;
  const kind = (value as { $kind?: string } | null | undefined)?.$kind;
  if (kind !== 'lazy-list' && kind !== 'tensor') {
    if (Array.isArray(value) && value.every((v) => typeof v === 'number')) {
      return { field, length: value.length, values: value as number[] };
    }
    throw new Error(`field ${field} holds no list of numbers`);
  }
  return withSource(source, (bytes) => {
    if (kind === 'lazy-list') {
      const list = value as LazyList;
      return { field, length: list.length, values: readLazyList(bytes, list).slice(0, MAX_VALUES) };
    }
    const tensor = value as TensorRef;
    const length = tensor.shape.reduce((n, d) => n * d, 1);
    return { field, length, values: readTensorValues(bytes, tensor, MAX_VALUES) };
  });
}

function withSource<T>(source: IngestSource, use: (bytes: ByteSource) => T): T {
  if (source.kind === 'bytes') return use(bytesSource(source.name, source.bytes));
  const file = openFileSource(source.path);
  try {
    return use(file);
  } finally {
    file.close();
  }
}
