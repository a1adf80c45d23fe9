/**
 * One row's spans by their id's number (a row that numbers its refs: ItemPacker's SpanIds
 * numbers), for finding each item's parent: two typed arrays, open addressing, kept and reused
 * from row to row. A Map of a GPU rank's 150k numbers grew its table (on the collector's heap)
 * again and again, and its sets and gets were a twentieth of the open.
 */
export class NumberIndex {
  private keys = new Int32Array(0);
  private values = new Int32Array(0);
  private mask = 0;
  /**
   * Keys close together (a Chrome row's counted span ids, a run from its base) index a table of
   * values directly, from `denseFrom`: the mixed slots of a GPU rank's million ids missed the
   * cache at each set and get, most of the store's walk of the rank (0.4 s a rank).
   */
  private dense = new Int32Array(0);
  private denseFrom = 0;
  /** the dense table's length in use, -1 when the keys are hashed */
  private denseLength = -1;

  /**
   * Empties it for a row of up to `count` keys; `min` and `max`, when given, bound them all
   * (keys that close together are then kept in a direct table).
   */
  reset(count: number, min = 0, max = -1): void {
    const span = max - min + 1;
    if (span > 0 && span <= DENSE_SPAN * count + 16) {
      if (this.dense.length < span) this.dense = new Int32Array(span);
      this.dense.fill(-1, 0, span);
      this.denseFrom = min;
      this.denseLength = span;
      return;
    }
    this.denseLength = -1;
    let size = 16;
    while (size < 2 * count) size *= 2;
    if (this.keys.length < size) {
      this.keys = new Int32Array(size);
      this.values = new Int32Array(size);
    }
    this.mask = size - 1;
    this.keys.fill(EMPTY, 0, size);
  }

  /** `key` (0 or more, within reset's bounds) to `value`, replacing what it had (as Map.set does). */
  set(key: number, value: number): void {
    if (this.denseLength >= 0) {
      this.dense[key - this.denseFrom] = value;
      return;
    }
    const { keys, mask } = this;
    let at = slotOf(key, mask);
    while (keys[at] !== EMPTY && keys[at] !== key) at = (at + 1) & mask;
    keys[at] = key;
    this.values[at] = value;
  }

  /** The value of `key`, or -1 (a key below 0 is never in it). */
  get(key: number): number {
    if (key < 0) return -1;
    if (this.denseLength >= 0) {
      const at = key - this.denseFrom;
      return at >= 0 && at < this.denseLength ? this.dense[at] : -1;
    }
    const { keys, mask } = this;
    let at = slotOf(key, mask);
    for (;;) {
      const k = keys[at];
      if (k === key) return this.values[at];
      if (k === EMPTY) return -1;
      at = (at + 1) & mask;
    }
  }
}

const EMPTY = -1;

/** keys within this many times their count of each other are kept in a direct table */
const DENSE_SPAN = 4;

/** A key's first slot: its bits mixed (counted ids come in runs), then masked. */
const slotOf = (key: number, mask: number) => (Math.imul(key, 0x9e3779b1) >>> 7) & mask;
