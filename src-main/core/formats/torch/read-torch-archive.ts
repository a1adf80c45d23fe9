import type { ByteSource } from '../../bytes/byte-source';
import { FormatError } from '../../bytes/format-error';
import type { PyClassRef, PyValue, TensorRef } from '../../model/py-value';
import { readZipDirectory, entryDataOffset } from '../zip/read-zip-directory';
import { openZipEntry } from '../zip/read-zip-entry';
import { PickleCursor } from '../pickle/pickle-cursor';
import { readPickle, type PickleOptions } from '../pickle/read-pickle';
import type { StorageRef } from '../pickle/allow-list';
import { storageDtype } from './storage-types';
import { StorageEntries } from './storage-entries';

export interface TorchReadOptions {
  onTick?: (offset: number, samplesRead: number) => void;
  /** see PickleOptions.onAppend (the data pickle only) */
  onAppend?: PickleOptions['onAppend'];
  /** see PickleOptions.onListItem (the data pickle only) */
  onListItem?: PickleOptions['onListItem'];
  /** see PickleOptions.skipListItem (the data pickle only) */
  skipListItem?: PickleOptions['skipListItem'];
  /** see PickleOptions.replay (the data pickle only) */
  replay?: PickleOptions['replay'];
  /** see PickleOptions.records (the data pickle only) */
  records?: PickleOptions['records'];
  /** see PickleOptions.scanSkippedItems (the data pickle only) */
  scanSkippedItems?: PickleOptions['scanSkippedItems'];
  /** see PickleOptions.memoOrder (the data pickle only) */
  memoOrder?: PickleOptions['memoOrder'];
  /**
   * Where the data pickle ends in the file, before it is read: the bytes past it are the
   * tensors' storages, which are located, never read (a dump of 1 GB may hold 250 MB of
   * samples and the rest storages). Only where the pickle lies in the file as it is (stored).
   */
  onPickleEnd?: (end: number) => void;
}

export interface TorchArchive {
  layout: 'zip' | 'legacy';
  value: PyValue;
}

/**
 * torch.save's zip layout: `<stem>/data.pkl` (the top folder is the stem at save time, so no
 * name is assumed) and `<stem>/data/<key>` per storage. Storages are located, not read.
 */
export function readTorchZip(source: ByteSource, options: TorchReadOptions = {}): TorchArchive {
  const entries = readZipDirectory(source);
  const pkl = entries
    .filter((e) => e.name === 'data.pkl' || e.name.endsWith('/data.pkl'))
    .sort((a, b) => a.name.length - b.name.length)[0];
  if (!pkl)
    throw new FormatError(
      'torch/no-data-pkl',
      'the archive has no data.pkl: not a torch.save file',
      0,
    );
  const prefix = pkl.name.slice(0, pkl.name.length - 'data.pkl'.length);
  const storages = new StorageEntries(entries, prefix);
  const load = (pid: PyValue) => loadStorage(pid, storages, pkl.localHeaderOffset);
  // a sample read again alone later finds its tensors' storages as this read does
  if (options.replay) options.replay.persistentLoad = load;
  const entry = openZipEntry(source, pkl);
  if (entry.fileOffset !== null) options.onPickleEnd?.(entry.fileOffset + entry.source.size);
  const cursor = new PickleCursor(entry.source, 0, entry.fileOffset);
  const { value } = readPickle(cursor, {
    onTick: options.onTick,
    onAppend: options.onAppend,
    onListItem: options.onListItem,
    skipListItem: options.skipListItem,
    replay: options.replay,
    records: options.records,
    scanSkippedItems: options.scanSkippedItems,
    memoOrder: options.memoOrder,
    persistentLoad: load,
  });
  return { layout: 'zip', value };
}

/**
 * The storage a persistent id names: its entry, where its bytes start found when its values
 * are read (storageStart), not now.
 */
function loadStorage(pid: PyValue, storages: StorageEntries, pklAt: number): StorageRef {
  const { key, storageClass, numel } = parseStoragePid(pid);
  const data = storages.get(key);
  if (!data)
    throw new FormatError('torch/missing-storage', `storage ${key} is not in the archive`, pklAt);
  const { dtype, itemSize } = storageDtype(storageClass);
  const byteLength = Math.min(data.size, numel * itemSize);
  const ref = storageRef(key, dtype, numel, -1, byteLength);
  // a compressed entry's bytes are not there as they are: no start to find
  if (data.method === 0) ref.storage.entryAt = data.localHeaderOffset;
  return ref;
}

/**
 * Where a storage's bytes start in `bytes` (the archive): its entry's local header read now
 * when it was only located by entry; -1 when they are not there as they are (compressed).
 */
export function storageStart(bytes: ByteSource, storage: TensorRef['storage']): number {
  if (storage.entryAt === undefined) return storage.byteOffset;
  return entryDataOffset(bytes, {
    // (read when a user asks: the message names the file as well as the storage)
    name: `data/${storage.key} of ${bytes.name}`,
    method: 0,
    compressedSize: storage.byteLength,
    size: storage.byteLength,
    localHeaderOffset: storage.entryAt,
  });
}

/** ('storage', storage_type, key, location, numel[, view_metadata]) */
export function parseStoragePid(pid: PyValue): {
  key: string;
  storageClass: string;
  numel: number;
} {
  if (!Array.isArray(pid) || pid[0] !== 'storage' || pid.length < 5) {
    throw new FormatError('torch/bad-persistent-id', 'a persistent id that is not a torch storage');
  }
  const type = pid[1] as PyClassRef;
  if (
    (pid[2] !== null && typeof pid[2] === 'object') ||
    (type !== null && typeof type === 'object' && !('name' in type))
  )
    throw new FormatError('torch/bad-persistent-id', 'a storage id with a malformed key or type');
  return {
    key: String(pid[2]),
    storageClass: type && typeof type === 'object' && 'name' in type ? type.name : String(type),
    numel: Number(pid[4]),
  };
}

export function storageRef(
  key: string,
  dtype: string,
  numel: number,
  byteOffset: number,
  byteLength: number,
): StorageRef {
  return {
    $kind: 'object',
    module: 'torch',
    name: 'storage',
    args: [key],
    state: undefined,
    storage: { key, dtype, numel, byteOffset, byteLength },
  };
}
