import { RawAttrs } from '../../model/raw-attrs';

/** Bytes per arena block: args texts are copied side by side into blocks of this size. */
const BLOCK_BYTES = 1 << 20;

/**
 * Where events' args texts are kept (as RawAttrs) once their chunk of the file is let go: copied
 * side by side into blocks of up to 1 MiB, so that what stays is the args' bytes, not each 4 MiB chunk
 * they came from (a chunk kept by one event's range would keep the whole file). A text of more
 * than a quarter block gets a block of its own.
 */
export class ArgsArena {
  private block = new Uint8Array(0);
  private used = 0;

  /** `chunk[from, from + length)` (an args object's JSON text) kept, with the event's `cat`. */
  keep(chunk: Uint8Array, from: number, length: number, cat: string | null): RawAttrs {
    if (length > BLOCK_BYTES / 4)
      return new RawAttrs(chunk.slice(from, from + length), 0, length, cat);
    if (this.used + length > this.block.length) {
      // from a small block, doubling: a tiny file's args take kilobytes, not a MiB
      this.block = new Uint8Array(
        Math.max(length, Math.min(BLOCK_BYTES, this.block.length * 2 || 4096)),
      );
      this.used = 0;
    }
    const at = this.used;
    const block = this.block;
    // a short text byte by byte: a view of it for set() cost more than the copy
    if (length <= 256) for (let k = 0; k < length; k++) block[at + k] = chunk[from + k];
    else block.set(chunk.subarray(from, from + length), at);
    this.used += length;
    return new RawAttrs(this.block, at, length, cat);
  }
}
