import type { ByteSource } from '../../bytes/byte-source';
import { FormatError } from '../../bytes/format-error';
import type { PyValue } from '../../model/py-value';
import { PickleCursor } from '../pickle/pickle-cursor';
import { readPickle } from '../pickle/read-pickle';
import type { StorageRef } from '../pickle/allow-list';
import {
  parseStoragePid,
  storageRef,
  type TorchArchive,
  type TorchReadOptions,
} from './read-torch-archive';
import { dtypeItemSize, storageDtype } from './storage-types';

/** The magic number torch writes first in its legacy (non-zip) layout. */
const LEGACY_MAGIC = 0x1950a86a20f9469cfc6cn;

export function sniffLegacyTorch(head: Uint8Array): boolean {
  // PROTO 2, then LONG1 of 10 bytes holding the magic number
  if (head.length < 14 || head[0] !== 0x80 || head[2] !== 0x8a || head[3] !== 0x0a) return false;
  let v = 0n;
  for (let i = 13; i >= 4; i--) v = (v << 8n) | BigInt(head[i]);
  return v === LEGACY_MAGIC;
}

/**
 * `_use_new_zipfile_serialization=False`: pickles in a row (magic, protocol, sys info, data,
 * storage keys), then each storage as an int64 element count and its raw bytes.
 */
export function readLegacyTorch(source: ByteSource, options: TorchReadOptions = {}): TorchArchive {
  const cursor = new PickleCursor(source, 0, 0);
  const magic = readPickle(cursor).value;
  if (magic !== null && BigInt(magic as bigint) !== LEGACY_MAGIC) {
    throw new FormatError('torch/bad-magic', 'not a torch legacy file (wrong magic number)', 0);
  }
  readPickle(cursor); // protocol version
  readPickle(cursor); // sys info
  const storages = new Map<string, StorageRef>();
  const { value } = readPickle(cursor, {
    onTick: options.onTick,
    onAppend: options.onAppend,
    onListItem: options.onListItem,
    skipListItem: options.skipListItem,
    replay: options.replay,
    records: options.records,
    scanSkippedItems: options.scanSkippedItems,
    memoOrder: options.memoOrder,
    persistentLoad: (pid: PyValue) => {
      const { key, storageClass, numel } = parseStoragePid(pid);
      let ref = storages.get(key);
      if (!ref) {
        ref = storageRef(key, storageDtype(storageClass).dtype, numel, -1, 0);
        storages.set(key, ref);
      }
      return ref;
    },
  });
  const keys = readPickle(cursor).value;
  if (!Array.isArray(keys))
    throw new FormatError(
      'torch/bad-storage-keys',
      'the storage key list is missing',
      cursor.offset,
    );
  // Storage bytes follow in key order; locate each (tensors are read on demand only).
  let offset = cursor.offset;
  for (const key of keys) {
    if (key !== null && typeof key === 'object')
      throw new FormatError('torch/bad-storage-keys', 'a storage key is not a name', offset);
    const ref = storages.get(String(key));
    if (offset + 8 > source.size)
      throw new FormatError('torch/truncated', 'the file ends inside its storages', offset);
    const head = source.read(offset, 8);
    const numel = Number(new DataView(head.buffer, head.byteOffset, 8).getBigInt64(0, true));
    const size = ref ? numel * dtypeItemSize(ref.storage.dtype) : numel;
    if (numel < 0 || offset + 8 + size > source.size)
      throw new FormatError(
        'torch/bad-storage-size',
        `storage ${String(key)} claims ${numel} elements, past the end of the file`,
        offset,
      );
    if (ref) {
      ref.storage.byteOffset = offset + 8;
      ref.storage.byteLength = size;
    }
    offset += 8 + size;
  }
  return { layout: 'legacy', value };
}
