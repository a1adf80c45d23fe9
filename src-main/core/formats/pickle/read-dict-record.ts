import { newPyDict, type PyDict, type PyValue } from '../../model/py-value';
import type { DictRecord } from './dict-records';
import { memoOperand, type PickleCursor } from './pickle-cursor';

/** The reader's memo as a record's dict sees it (readPickle's, with its checks). */
export interface RecordMemo {
  /** the memo's size: what MEMOIZE numbers its slot by */
  readonly size: number;
  /**
   * slot `index`'s value when it is a plain value (a string, a number, a boolean), else
   * NOT_PLAIN (none, a container, a let-go slot: the reader reads the dict itself)
   */
  plain(index: number): PyValue | typeof NOT_PLAIN;
  /**
   * writes slot `index` (a string read at `stringAt`, else -1); false where the reader's own
   * write would fail a check (it then reads the dict itself, and fails)
   */
  put(index: number, value: PyValue, stringAt: number): boolean;
  /** slot `index` holds the string at `stringAt`, decoded only if it is read back */
  putUnread(index: number, stringAt: number): boolean;
}

export const NOT_PLAIN: unique symbol = Symbol('not plain');

const EMPTY_DICT = 0x7d;
const MARK = 0x28;
const SETITEM = 0x73;
const SETITEMS = 0x75;
const BINGET = 0x68;
const LONG_BINGET = 0x6a;
const BINPUT = 0x71;
const LONG_BINPUT = 0x72;
const MEMOIZE = 0x94;
const BINUNICODE = 0x58;
const SHORT_BINUNICODE = 0x8c;

/**
 * Reads a record's dict straight off the cursor's window, as CPython's pickler writes a dict
 * of two or more keys: EMPTY_DICT, its memo write, MARK, (key value)*, SETITEMS; keys strings,
 * values plain (a string, a number, None, a boolean) or a dict of plain values (an event's
 * attrs). No stack, no switch per opcode: a value the record drops is walked past (a string
 * of it noted where it lies), and the rest go to their fields.
 *
 * Anything else (another opcode, a key that is not a string, a memo read of a container, an
 * opcode not whole in the window) gives up with the cursor where it was, and the reader reads
 * the dict itself, opcode by opcode: what was written to the memo by then is written again
 * the same way, and the record is the same either way. One reader per pickle read: a closure
 * per dict was more garbage than the dict.
 */
export class DictRecordReader {
  private w: Uint8Array = new Uint8Array(0);
  private base = 0;
  // every opcode that starts at or before `last` has its fixed operand in the window
  private last = 0;
  private pos = 0;
  private ops = 0;
  /** a dict value was nested in the last record read (its depth is then 1) */
  nested = false;

  constructor(
    private readonly cursor: PickleCursor,
    private readonly memo: RecordMemo,
    /** the text of a string opcode's n bytes at the cursor (the reader's string table) */
    private readonly text: (n: number) => string,
  ) {}

  /**
   * The dict whose EMPTY_DICT is at the cursor, into `record`: the opcodes walked, the cursor
   * past its SETITEMS; or -1, the cursor where it was.
   */
  read(record: DictRecord): number {
    const cursor = this.cursor;
    const w = (this.w = cursor.window);
    this.base = cursor.windowStart;
    this.last = w.length - 9;
    const start = cursor.pos;
    this.pos = start + 1;
    this.ops = 1;
    this.nested = false;
    if (!this.putAfter(record as unknown as PyValue, -1) || !this.at(MARK))
      return this.giveUp(start);
    this.pos++;
    this.ops++;
    for (;;) {
      if (this.pos > this.last) return this.giveUp(start);
      if (w[this.pos] === SETITEMS) break;
      const k = this.key();
      if (k === null || k === 'index') return this.giveUp(start);
      const field = record.field(k);
      if (this.at(EMPTY_DICT)) {
        const dict = this.plainDict();
        if (dict === null) return this.giveUp(start);
        this.nested = true;
        if (field >= 0) record.setField(field, dict);
        continue;
      }
      const v = this.plainValue(field >= 0);
      if (v === NOT_PLAIN) return this.giveUp(start);
      if (field >= 0) record.setField(field, v);
    }
    cursor.pos = this.pos + 1;
    return this.ops + 1;
  }

  private giveUp(start: number): number {
    this.cursor.pos = start;
    return -1;
  }

  /** whether opcode `op` is at pos, whole in the window */
  private at(op: number): boolean {
    return this.pos <= this.last && this.w[this.pos] === op;
  }

  /** a string opcode's length at `at` (head and bytes), or -1 when not whole in the window */
  private stringSize(at: number): number {
    const w = this.w;
    const short = w[at] === SHORT_BINUNICODE;
    const n = short
      ? w[at + 1]
      : (w[at + 1] | (w[at + 2] << 8) | (w[at + 3] << 16) | (w[at + 4] << 24)) >>> 0;
    const head = short ? 2 : 5;
    return n > w.length - at - head ? -1 : head + n;
  }

  /** the text of the string opcode at `at`, `size` long in all */
  private stringAt(at: number, size: number): string {
    const head = this.w[at] === SHORT_BINUNICODE ? 2 : 5;
    this.cursor.pos = at + head;
    return this.text(size - head);
  }

  /** the memo write at pos (if any), its slot index, or -1 without one */
  private putIndex(): number {
    if (this.pos > this.last) return -1;
    const op = this.w[this.pos];
    if (op === BINPUT) {
      this.pos += 2;
    } else if (op === LONG_BINPUT) {
      this.pos += 5;
    } else if (op === MEMOIZE) {
      this.pos += 1;
      this.ops++;
      return this.memo.size;
    } else return -1;
    this.ops++;
    return memoOperand(this.w, this.pos - (op === BINPUT ? 2 : 5), op === BINPUT);
  }

  /** the memo write at pos (if any) of `value`, read at `stringAt`; false to give up */
  private putAfter(value: PyValue, stringAt: number): boolean {
    const index = this.putIndex();
    return index < 0 || this.memo.put(index, value, stringAt);
  }

  /** a key (a memo read of a string, or a string and its memo write), or null to give up */
  private key(): string | null {
    if (this.pos > this.last) return null;
    const w = this.w;
    const op = w[this.pos];
    if (op === BINGET || op === LONG_BINGET) {
      const slot = this.memo.plain(memoOperand(w, this.pos, op === BINGET));
      this.pos += op === BINGET ? 2 : 5;
      this.ops++;
      return typeof slot === 'string' ? slot : null;
    }
    if (op !== BINUNICODE && op !== SHORT_BINUNICODE) return null;
    const at = this.pos;
    const size = this.stringSize(at);
    if (size < 0) return null;
    const k = this.stringAt(at, size);
    this.pos = at + size;
    this.ops++;
    return this.putAfter(k, this.base + at) ? k : null;
  }

  /**
   * A plain value at pos (and its memo write), NOT_PLAIN to give up; a dropped string (`keep`
   * false) is not decoded, its memo slot told where it lies.
   */
  private plainValue(keep: boolean): PyValue | typeof NOT_PLAIN {
    if (this.pos > this.last) return NOT_PLAIN;
    const w = this.w;
    const pos = this.pos;
    const op = w[pos];
    let value: PyValue;
    switch (op) {
      case BINGET:
      case LONG_BINGET:
        // (CPython's pickler never memoizes a memo read's value again: a write after one is
        // read by the reader, which then gives up at the key expected there)
        this.pos += op === BINGET ? 2 : 5;
        this.ops++;
        return this.memo.plain(memoOperand(w, pos, op === BINGET));
      case BINUNICODE:
      case SHORT_BINUNICODE: {
        const size = this.stringSize(pos);
        if (size < 0) return NOT_PLAIN;
        this.pos = pos + size;
        this.ops++;
        if (keep) {
          const s = this.stringAt(pos, size);
          return this.putAfter(s, this.base + pos) ? s : NOT_PLAIN;
        }
        const index = this.putIndex();
        return index < 0 || this.memo.putUnread(index, this.base + pos) ? null : NOT_PLAIN;
      }
      case 0x4b: // BININT1
        value = w[pos + 1];
        this.pos += 2;
        break;
      case 0x4d: // BININT2
        value = w[pos + 1] | (w[pos + 2] << 8);
        this.pos += 3;
        break;
      case 0x4a: // BININT: signed, as `|` makes it
        value = w[pos + 1] | (w[pos + 2] << 8) | (w[pos + 3] << 16) | (w[pos + 4] << 24);
        this.pos += 5;
        break;
      case 0x47: // BINFLOAT
        value = this.cursor.view.getFloat64(pos + 1, false);
        this.pos += 9;
        break;
      case 0x4e: // NONE
        value = null;
        this.pos += 1;
        break;
      case 0x88: // NEWTRUE
      case 0x89: // NEWFALSE
        value = op === 0x88;
        this.pos += 1;
        break;
      default:
        return NOT_PLAIN;
    }
    this.ops++;
    return this.putAfter(value, -1) ? value : NOT_PLAIN;
  }

  /** a dict of plain values at pos (EMPTY_DICT, its memo write, its items), or null */
  private plainDict(): PyDict | null {
    const dict = newPyDict();
    this.pos++;
    this.ops++;
    if (!this.putAfter(dict, -1)) return null;
    if (this.at(MARK)) {
      this.pos++;
      this.ops++;
      for (;;) {
        if (this.pos > this.last) return null;
        if (this.w[this.pos] === SETITEMS) {
          this.pos++;
          this.ops++;
          return dict;
        }
        if (!this.pair(dict)) return null;
      }
    }
    // one item (key value SETITEM), or none: an empty dict, whose next opcode is the next key
    // of the record (told apart by the opcode after a key and a value)
    const after = this.plainEnd(this.plainEnd(this.pos));
    if (after < 0 || after > this.last || this.w[after] !== SETITEM) return dict;
    if (!this.pair(dict)) return null;
    this.pos++;
    this.ops++;
    return dict;
  }

  /** one key and plain value onto a dict; false to give up */
  private pair(dict: PyDict): boolean {
    const k = this.key();
    if (k === null || k === 'index') return false;
    const v = this.plainValue(true);
    if (v === NOT_PLAIN) return false;
    dict[k] = v;
    return true;
  }

  /** where a key or plain value at `at` and its memo write end, or -1 */
  private plainEnd(at: number): number {
    if (at < 0 || at > this.last) return -1;
    const w = this.w;
    const op = w[at];
    let end: number;
    if (op === BINUNICODE || op === SHORT_BINUNICODE) {
      const size = this.stringSize(at);
      if (size < 0) return -1;
      end = at + size;
    } else {
      const size = PLAIN_SIZE[op];
      if (size === 0) return -1;
      end = at + size;
    }
    if (end > this.last) return -1;
    const put = w[end];
    return put === BINPUT
      ? end + 2
      : put === LONG_BINPUT
        ? end + 5
        : put === MEMOIZE
          ? end + 1
          : end;
  }
}

/** The size of each plain value's opcode of a fixed size (memo reads, numbers, None, booleans). */
const PLAIN_SIZE = new Uint8Array(256);
for (const [op, size] of [
  [BINGET, 2],
  [LONG_BINGET, 5],
  [0x4b, 2],
  [0x4d, 3],
  [0x4a, 5],
  [0x47, 9],
  [0x4e, 1],
  [0x88, 1],
  [0x89, 1],
])
  PLAIN_SIZE[op] = size;
