import type { PickleCursor } from './pickle-cursor';

const EMPTY_DICT = 0x7d;
const MARK = 0x28;
const SETITEMS = 0x75;
const APPENDS = 0x65;
const BINPUT = 0x71;
const LONG_BINPUT = 0x72;
const BINGET = 0x68;
const LONG_BINGET = 0x6a;

/**
 * Finds where a watched list's dict item ends by looking for the next item's first bytes
 * instead of walking its opcodes (skip-item.ts): a helper thread passes half a dump this way
 * before its part. CPython's pickler writes every item of a list of dicts alike: EMPTY_DICT,
 * its memo write, MARK, and its first key, an interned string read back from the memo (the
 * same slot in every item after the first). An item ends where the next one's EMPTY_DICT
 * follows its SETITEMS, or at its batch's APPENDS when MARK and the next item follow that.
 *
 * A match inside an item's own bytes (a string that holds the same bytes) ends it too early:
 * the scan never says an offset is an item's start for sure, and the memo slots of the items
 * it passes are never written. The reader resolves a slot read later by walking the one item
 * that wrote it (itemOfSlot), and the thread that read the same bytes in order checks the
 * first item it built (read-in-parts.ts): where it starts, and that the memo was written in
 * order up to it, which the slots' lookup by item relies on.
 *
 * Learned from an item walked first (learn); only within the cursor's window: an item that
 * ends past it, or any other shape, is walked as before.
 */
export class ItemStartScan {
  /** the first key's memo read (opcode and operand), once learned; null: no scanning */
  private key: Uint8Array | null = null;
  /** the items passed by scanning: where each starts (source offset) and its first slot */
  private starts: number[] = [];
  private slots: number[] = [];
  /** items passed by scanning */
  scanned = 0;

  /**
   * The item whose EMPTY_DICT is at `start` was walked: its first bytes say how every item
   * starts, if they are EMPTY_DICT, a memo write, MARK and a memo read.
   */
  learn(cursor: PickleCursor, start: number): void {
    if (this.key !== null) return;
    const head = cursor.peekAt(start, Math.min(16, cursor.source.size - start));
    if (head[0] !== EMPTY_DICT) return;
    const put = head[1] === BINPUT ? 2 : head[1] === LONG_BINPUT ? 5 : 0;
    if (put === 0 || head[1 + put] !== MARK) return;
    const keyAt = 2 + put;
    const keySize = head[keyAt] === BINGET ? 2 : head[keyAt] === LONG_BINGET ? 5 : 0;
    if (keySize === 0 || keyAt + keySize > head.length) return;
    this.key = head.slice(keyAt, keyAt + keySize);
  }

  /**
   * Where the item whose EMPTY_DICT is at source offset `start` ends (the next item's
   * EMPTY_DICT, or its batch's APPENDS), found in the cursor's window; -1 when not found
   * there. The item is noted for itemOfSlot.
   */
  itemEnd(cursor: PickleCursor, start: number): number {
    const key = this.key;
    if (key === null) return -1;
    const w = cursor.window;
    const base = cursor.windowStart;
    const from = start - base;
    const slot = slotAt(w, from);
    if (slot < 0) return -1;
    // the next item's MARK and first key, then its EMPTY_DICT and memo write before them
    const last = w.length - key.length - 1;
    for (let i = w.indexOf(MARK, from + 1); i >= 0 && i <= last; i = w.indexOf(MARK, i + 1)) {
      if (w[i + 1] !== key[0] || !sameBytes(w, i + 1, key)) continue;
      const at =
        w[i - 2] === BINPUT && w[i - 3] === EMPTY_DICT
          ? i - 3
          : w[i - 5] === LONG_BINPUT && w[i - 6] === EMPTY_DICT
            ? i - 6
            : -1;
      // (the item's own first bytes match too); the next item writes later memo slots
      if (at <= from || slotAt(w, at) <= slot) continue;
      let end = -1;
      if (w[at - 1] === SETITEMS) end = at;
      else if (w[at - 1] === MARK && w[at - 2] === APPENDS) end = at - 2;
      if (end < 0) continue;
      this.starts.push(start);
      this.slots.push(slot);
      this.scanned++;
      return base + end;
    }
    return -1;
  }

  /**
   * The item whose EMPTY_DICT is at source offset `start` was walked past without noting its
   * memo writes (one whose end the scan could not find in the window): noted as a scanned one,
   * for itemOfSlot. False when its first memo write is not a BINPUT or LONG_BINPUT.
   */
  note(cursor: PickleCursor, start: number): boolean {
    const slot = this.slotOf(cursor, start);
    if (slot < 0) return false;
    this.starts.push(start);
    this.slots.push(slot);
    return true;
  }

  /** The first memo slot of the item whose EMPTY_DICT is at source offset `start`, or -1. */
  slotOf(cursor: PickleCursor, start: number): number {
    return slotAt(cursor.peekAt(start, Math.min(6, cursor.source.size - start)), 0);
  }

  /**
   * Where the scanned item that wrote memo slot `slot` starts (the last one whose first slot
   * is at most `slot`), or -1: none, or that item was resolved already (its slots are all
   * written now, and one not among them is not a scanned item's).
   */
  itemOfSlot(slot: number): number {
    const { slots } = this;
    let lo = 0;
    let hi = slots.length - 1;
    let found = -1;
    while (lo <= hi) {
      const mid = (lo + hi) >>> 1;
      if (slots[mid] <= slot) {
        found = mid;
        lo = mid + 1;
      } else hi = mid - 1;
    }
    if (found < 0 || this.starts[found] < 0) return -1;
    const start = this.starts[found];
    // walked once: its slots are written, and a slot it did not write is nobody's here
    this.starts[found] = -1;
    return start;
  }
}

/** the memo slot an item's EMPTY_DICT at `at` writes (its BINPUT or LONG_BINPUT), or -1 */
function slotAt(w: Uint8Array, at: number): number {
  if (at < 0 || at + 6 > w.length || w[at] !== EMPTY_DICT) return -1;
  if (w[at + 1] === BINPUT) return w[at + 2];
  if (w[at + 1] !== LONG_BINPUT) return -1;
  return (w[at + 2] | (w[at + 3] << 8) | (w[at + 4] << 16) | (w[at + 5] << 24)) >>> 0;
}

function sameBytes(w: Uint8Array, at: number, bytes: Uint8Array): boolean {
  for (let k = 0; k < bytes.length; k++) if (w[at + k] !== bytes[k]) return false;
  return true;
}
