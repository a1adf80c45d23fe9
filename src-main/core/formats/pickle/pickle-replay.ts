import { grownColumn } from '../../model/grown-column';
import type { PyValue } from '../../model/py-value';

/** Where one item of a list lies in the file, to read it again alone (read-pickle-item.ts). */
export interface PickleItemAt {
  /** file offsets of the item's first opcode and of the one after its last */
  start: number;
  end: number;
  /** the memo's size when the item started: what MEMOIZE numbers its slots from */
  memoSize: number;
}

/**
 * What reading a list's items again one at a time needs beyond their bytes: the memo values
 * they read from before they started. A CPython pickle writes a dict key, a class or an enum
 * name once and reads it back by memo slot ever after, so a sample in the middle of a dump
 * refers to strings written by the first one. These are few (the distinct keys and repeated
 * names): kept here, the items themselves need not be.
 */
export class PickleReplay {
  /** memo values by slot, as the items read them */
  readonly before = new Map<number, PyValue>();
  /** per slot, whether `before` holds it (a byte a slot: memo reads are millions) */
  held = new Uint8Array(1 << 16);
  /**
   * How the pickle's persistent ids are loaded again when an item is read alone, set by the
   * archive that gives them meaning (a torch zip: its storages by key); null: an item that
   * loads one cannot be read alone.
   */
  persistentLoad: ((pid: PyValue) => PyValue) | null = null;

  /**
   * The item being read got `value` from slot `index`, written before it started: kept.
   * Returns `held` (grown when `index` was past it).
   */
  keep(index: number, value: PyValue): Uint8Array {
    if (index >= this.held.length) this.held = grownColumn(this.held, index + 1, 2);
    if (this.held[index] === 0) {
      this.held[index] = 1;
      this.before.set(index, value);
    }
    return this.held;
  }

  /**
   * Takes in the values another reading of the same pickle kept (another thread's items): a
   * slot both kept holds the same value, written once.
   */
  absorb(before: ReadonlyMap<number, PyValue>): void {
    for (const [index, value] of before) if (!this.before.has(index)) this.before.set(index, value);
  }

  /** The pickle is read again from its start. */
  clear(): void {
    this.before.clear();
    this.held = new Uint8Array(1 << 16);
  }

  /** The pickle is read: only the values stay. */
  done(): void {
    this.held = new Uint8Array(0);
  }
}
