/**
 * Reads the end of a large file on another thread while this one reads its start. Given by
 * the ingest layer (worker threads) to the formats that can read a file in parts; without it,
 * one thread reads everything. `T` is the format's transferable result for its part.
 */
export interface PartReader<T = unknown> {
  /**
   * Starts reading bytes [from, end of file) of `path`; null when it cannot. `from` may be told
   * later (a LaterStart, then PendingPart.startAt): the helper starts while the file's thread
   * still measures whether a helper pays, and does what comes before its part meanwhile.
   */
  start(path: string, from: number | LaterStart): PendingPart<T> | null;
  /**
   * How many threads the machine runs at once: a format whose helper repeats part of the work
   * (a pickle is read from its start) gains only with cores to spare.
   */
  readonly threads: number;
  /**
   * Formats that decide while reading: the least time this thread alone would take for the
   * rest that is worth a helper, in seconds (tests, comparisons); the format's default else.
   */
  readonly splitMinSeconds?: number;
}

/** A part started before it is known where: it starts at `notBefore` or later. */
export interface LaterStart {
  notBefore: number;
}

export interface PendingPart<T = unknown> {
  /** Blocks until the part is read (calling onTick with its bytes read so far); null if it failed. */
  wait(onTick: (bytesRead: number) => void): T | null;
  /**
   * What the helper sent ahead of its part (PartHelper.send) and was not taken yet, in order:
   * taken while this thread reads (each piece then costs its memory here once, not queued as
   * well), and once more after `wait`.
   */
  pieces?(): unknown[];
  /** bytes of the part read so far, for progress while this thread reads its own part */
  bytesRead(): number;
  cancel(): void;
  /**
   * A part started with a LaterStart: where it starts (at least its `notBefore`), told once.
   * Until then the helper does only what comes before `notBefore`, then waits.
   */
  startAt?(from: number): void;
  /** where the part starts when the helper decides it (formats whose parts are items) */
  readonly boundary?: PartBoundary;
}

/** What a format's readPart (on the helper thread) reports to and shares with the file's thread. */
export interface PartHelper {
  /** how far it read (bytes), for progress and to tell a stalled helper from a busy one */
  onBytes(bytesRead: number): void;
  /** every byte is read: packing and posting the part, which reports no progress */
  onPosting(): void;
  /** where the part starts, for formats whose helper decides it (FormatDescriptor.readPart) */
  boundary: PartBoundary;
  /**
   * Where the part starts: the `from` readPart was given, or, for a part started with a
   * LaterStart (then that `from` is its `notBefore`), blocks until the file's thread tells it
   * (PendingPart.startAt). Null when the part was cancelled meanwhile.
   */
  partStart(): number | null;
  /**
   * Sends a piece of the part ahead of it (`transfer`: its buffers, moved): a helper that
   * would otherwise hold its whole part until the end lets each piece go (PendingPart.pieces).
   */
  send(piece: unknown, transfer: ArrayBuffer[]): void;
}

/** A PartReader for any format: the helper thread reads the part with that format's readPart. */
export interface FormatPartReader {
  start(format: string, path: string, from: number | LaterStart): PendingPart | null;
  readonly threads: number;
  readonly splitMinSeconds?: number;
}

/**
 * Where a part starts, agreed by both threads when only the file's reading can tell (a pickle's
 * items): the helper reads from the start of the file without building anything until it
 * claims an item, the file's thread builds items until it reaches the claimed one. Two slots of
 * a shared Int32Array: the claimed item (-1 until then) and the item the file's thread is at.
 * Each side writes its slot, then reads the other's (sequentially consistent), so at least one
 * sees the other: never both build an item, never neither.
 */
export class PartBoundary {
  static readonly SLOTS = 2;

  constructor(
    private readonly slots: Int32Array,
    private readonly at = 0,
  ) {}

  /** A boundary of its own (one thread, a test): nothing claimed, nothing read. */
  static local(): PartBoundary {
    const boundary = new PartBoundary(new Int32Array(PartBoundary.SLOTS));
    boundary.reset();
    return boundary;
  }

  reset(): void {
    Atomics.store(this.slots, this.at, -1);
    Atomics.store(this.slots, this.at + 1, -1);
  }

  /**
   * The helper: the part starts at item `index`, unless the file's thread already reached it
   * (false: the helper gives up; the file's thread may still stop at a later item, having seen
   * the claim, and then reads on alone once it hears the helper gave up).
   */
  claim(index: number): boolean {
    Atomics.store(this.slots, this.at, index);
    return Atomics.load(this.slots, this.at + 1) < index;
  }

  /** The file's thread, before building item `index`: whether the part has it (stop here). */
  reached(index: number): boolean {
    Atomics.store(this.slots, this.at + 1, index);
    const claimed = Atomics.load(this.slots, this.at);
    return claimed >= 0 && index >= claimed;
  }
}
