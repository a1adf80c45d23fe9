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

  /** Empties it for a row of up to `count` keys. */
  reset(count: number): void {
    let size = 16;
    while (size < 2 * count) size *= 2;
    if (this.keys.length < size) {
      this.keys = new Int32Array(size);
      this.values = new Int32Array(size);
    }
    this.mask = size - 1;
    this.keys.fill(EMPTY, 0, size);
  }

  /** `key` (0 or more) to `value`, replacing what it had (as Map.set does). */
  set(key: number, value: number): void {
    const { keys, mask } = this;
    let at = slotOf(key, mask);
    while (keys[at] !== EMPTY && keys[at] !== key) at = (at + 1) & mask;
    keys[at] = key;
    this.values[at] = value;
  }

  /** The value of `key`, or -1 (a key below 0 is never in it). */
  get(key: number): number {
    if (key < 0) return -1;
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

/** A key's first slot: its bits mixed (counted ids come in runs), then masked. */
const slotOf = (key: number, mask: number) => (Math.imul(key, 0x9e3779b1) >>> 7) & mask;
