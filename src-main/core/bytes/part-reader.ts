/**
 * Reads the end of a large file on another thread while this one reads its start. Given by
 * the ingest layer (worker threads) to the formats that can read a file in parts; without it,
 * one thread reads everything. `T` is the format's transferable result for its part.
 */
export interface PartReader<T = unknown> {
  /** Starts reading bytes [from, end of file) of `path`; null when it cannot. */
  start(path: string, from: number): PendingPart<T> | null;
}

export interface PendingPart<T = unknown> {
  /** Blocks until the part is read (calling onTick with its bytes read so far); null if it failed. */
  wait(onTick: (bytesRead: number) => void): T | null;
  /** bytes of the part read so far, for progress while this thread reads its own part */
  bytesRead(): number;
  cancel(): void;
}

/** A PartReader for any format: the helper thread reads the part with that format's readPart. */
export interface FormatPartReader {
  start(format: string, path: string, from: number): PendingPart | null;
}
