import { sizeWithoutInflating, type ByteSource } from '../../../bytes/byte-source';
import { gunzipIfGzip } from '../../../bytes/gunzip-source';
import type { PartHelper, PartReader, PendingPart } from '../../../bytes/part-reader';
import type { PackedRow } from '../../../model/row';
import { ItemPacker, revivePackedRows } from '../../../rows/packed-items';

/** How a rank is read: its label from what its file says, progress, the read's end. */
export interface RankReadOptions {
  /** names the rank from what its file says of itself (rankName's label) */
  label: (own: string) => string;
  onProgress?: (bytesRead: number, events: number) => void;
  /** every byte is read (the figures and the row follow) */
  onRead?: () => void;
}

/** What reads a rank (gpu-profile.ts's readRankFile), and what it gives. */
export interface RankReader<T extends { rows: PackedRow[] }> {
  (source: ByteSource, index: number, packer: ItemPacker, options: RankReadOptions): T;
}

/**
 * Ranks are read on helper threads, side by side, when the ranks after the first hold at least
 * this much (a helper thread costs its start, about a tenth of a second): the wall time of a
 * profile is then about its largest rank's, where one thread took the sum of them.
 */
export const PARALLEL_RANKS_MIN_BYTES = 16 * 1024 * 1024;

/**
 * Helpers only on a machine of this many threads or more. On two, 8 ranks of 300 MB: 0.55-0.6x
 * the wall time of one thread, about the same CPU time, the peak 0.84x the files (it was 1.1x
 * before a rank's links stopped being objects and while three ranks were read at once).
 */
export const PARALLEL_RANKS_MIN_THREADS = 2;

/** The ranks read ahead on helper threads, taken in the profile's order. */
export interface RankHelpers<T> {
  /**
   * Rank `index` as its helper read it (waiting for it, `onTick` with its bytes read), or null:
   * this thread reads it (no helper had it, or its helper failed).
   */
  take(index: number, onTick: (bytesRead: number) => void): T | null;
  /** Ends the helpers still reading (an open cancelled or failed). */
  cancel(): void;
}

/**
 * Helpers for a GPU profile's ranks (`partReader`, given in the worker and the CLI), or null when
 * its files are read on this thread: one file, too few threads, ranks too small to pay for one.
 * While this thread reads a rank, up to threads - 1 helpers read the next ones; while it waits
 * for one, up to `threads` with that one. A helper reads its rank's file by its path (a gzip
 * file's, `gzipPath`, inflated there: never here); bytes without a file are read here.
 */
export function rankHelpers<T extends { rows: PackedRow[] }>(
  sources: readonly ByteSource[],
  reader: PartReader | undefined,
  minBytes = PARALLEL_RANKS_MIN_BYTES,
): RankHelpers<T> | null {
  if (reader === undefined || reader.threads < PARALLEL_RANKS_MIN_THREADS || sources.length < 2)
    return null;
  const pathOf = (source: ByteSource) => source.path ?? source.gzipPath;
  let later = 0;
  // (a gzip file's stated size: its size would inflate it here)
  for (let k = 1; k < sources.length; k++)
    if (pathOf(sources[k]) !== undefined) later += sizeWithoutInflating(sources[k]);
  // splitMinSeconds 0: every file in parts (tests), whatever its size
  if (later === 0 || (reader.splitMinSeconds !== 0 && later < minBytes)) return null;
  const pending = new Map<number, PendingPart>();
  let next = 1;
  const startUpTo = (limit: number) => {
    while (next < sources.length && pending.size < limit) {
      const index = next++;
      const path = pathOf(sources[index]);
      if (path === undefined) continue;
      const part = reader.start(path, index);
      if (part === null) {
        next = sources.length; // no helper thread can start: the rest is read here
        return;
      }
      pending.set(index, part);
    }
  };
  startUpTo(reader.threads - 1);
  return {
    take(index, onTick) {
      const part = pending.get(index);
      if (part === undefined) {
        startUpTo(reader.threads - 1);
        return null;
      }
      pending.delete(index);
      // the rank waited for is still read: with it, `threads` helpers read while this thread waits
      startUpTo(reader.threads - 1);
      const read = part.wait(onTick) as T | null;
      if (read !== null) revivePackedRows(read.rows);
      return read;
    },
    cancel() {
      for (const part of pending.values()) part.cancel();
      pending.clear();
      next = sources.length;
    },
  };
}

/**
 * A helper thread's part of a GPU profile: one whole rank, read with `readRank` (its span ids'
 * prefix from `index`, the rank's place among the profile's files, which the PartReader's
 * `from` carries here), its rows packed by a packer of its own and posted with their buffers.
 */
export function readRankPart<T extends { rows: PackedRow[] }>(
  file: ByteSource,
  index: number,
  helper: PartHelper,
  readRank: RankReader<T>,
): { part: T; transfer: ArrayBuffer[] } {
  const packer = new ItemPacker();
  const read = readRank(gunzipIfGzip(file), index, packer, {
    label: (own) => own,
    onProgress: (bytes) => helper.onBytes(bytes),
    // the figures and the row report no progress: the file's thread waits longer for them
    onRead: () => helper.onPosting(),
  });
  const rows = packer.rowsToSend(read.rows);
  const transfer = new Set<ArrayBuffer>();
  for (const { packed } of rows) {
    transfer.add(packed.numbers.buffer as ArrayBuffer);
    if (packed.refs instanceof Int32Array) transfer.add(packed.refs.buffer as ArrayBuffer);
  }
  return { part: { ...read, rows }, transfer: [...transfer] };
}
