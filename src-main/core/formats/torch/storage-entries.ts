import type { ZipEntry } from '../zip/read-zip-directory';

/** Below this many keys past the archive's entry count, numeric keys go to the dense columns. */
const DENSE_SLACK = 1024;

/**
 * A torch archive's storage entries (`<stem>/data/<key>`) by key, kept for as long as the
 * file is open: a sample read again alone (a user opens it) loads its tensors' storages by
 * key once more. torch.save numbers its keys 0, 1, 2...: those sit in typed columns (21 bytes
 * a storage, outside the collector's heap; a dump with routed experts holds six storages a
 * sample, and a Map of ZipEntry objects was about 150 bytes each), any other key in a Map.
 */
export class StorageEntries {
  private readonly headerAt: Float64Array;
  private readonly size: Float64Array;
  private readonly compressedSize: Float64Array;
  /** the entry's method + 1 (0: no entry with that key) */
  private readonly method: Uint8Array;
  private readonly others = new Map<string, ZipEntry>();

  constructor(
    entries: readonly ZipEntry[],
    private readonly prefix: string,
  ) {
    const folder = `${prefix}data/`;
    // a hostile archive naming storage 4000000000 must not make columns that long
    const dense = entries.length + DENSE_SLACK;
    let most = -1;
    for (const entry of entries) {
      if (!entry.name.startsWith(folder)) continue;
      const n = denseKey(entry.name.slice(folder.length), dense);
      if (n > most) most = n;
    }
    this.headerAt = new Float64Array(most + 1);
    this.size = new Float64Array(most + 1);
    this.compressedSize = new Float64Array(most + 1);
    this.method = new Uint8Array(most + 1);
    for (const entry of entries) {
      if (!entry.name.startsWith(folder)) continue;
      const key = entry.name.slice(folder.length);
      const n = denseKey(key, dense);
      // methods past 254 (none a torch archive uses) keep their ZipEntry as it is
      if (n < 0 || entry.method > 254) {
        this.others.set(key, entry);
        continue;
      }
      this.headerAt[n] = entry.localHeaderOffset;
      this.size[n] = entry.size;
      this.compressedSize[n] = entry.compressedSize;
      this.method[n] = entry.method + 1;
    }
  }

  /** The entry of storage `key`, or undefined when the archive has none. */
  get(key: string): ZipEntry | undefined {
    const n = denseKey(key, this.method.length);
    if (n < 0 || this.method[n] === 0) return this.others.get(key);
    return {
      name: `${this.prefix}data/${key}`,
      method: this.method[n] - 1,
      compressedSize: this.compressedSize[n],
      size: this.size[n],
      localHeaderOffset: this.headerAt[n],
    };
  }
}

/** `key` as a column index when it is a plain decimal below `limit` ("7", not "07" or "-1"), else -1 */
function denseKey(key: string, limit: number): number {
  if (key.length === 0 || key.length > 10) return -1;
  let n = 0;
  for (let i = 0; i < key.length; i++) {
    const c = key.charCodeAt(i) - 0x30;
    if (c < 0 || c > 9 || (c === 0 && i === 0 && key.length > 1)) return -1;
    n = n * 10 + c;
  }
  return n < limit ? n : -1;
}
