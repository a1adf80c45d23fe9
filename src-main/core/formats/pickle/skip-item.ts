import { FormatError } from '../../bytes/format-error';
import { memoOperand, type PickleCursor } from './pickle-cursor';

/** What a skipped item wrote to the memo (the reader's memo, through its own checks). */
export interface SkippedMemoWrites {
  /** the memo's size: what MEMOIZE numbers its slot by */
  readonly size: number;
  /** slot `index` holds the string opcode at `stringAt` (an offset in the cursor's source), or -1: anything else */
  write(index: number, stringAt: number): void;
  /** slot `index` holds the class GLOBAL named (classes are few, and read back by later items) */
  writeClass(index: number, module: string, name: string): void;
}

const EMPTY_DICT = 0x7d;
const APPENDS = 0x65;
const BUILD = 0x62;

/**
 * Walks past one item of a list's batch without building it: the item starts with the dict
 * whose EMPTY_DICT was just read, and ends where the next item's dict starts or its batch is
 * appended, with only the item on the stack (the same rule PickleOptions.onListItem completes
 * items by). An `object` item (a class's object: NEWOBJ, then BUILD from its dict) starts at
 * the cursor, its class, and ends with the BUILD that leaves only it on the stack. Only the
 * stack's depth and marks are followed, token batches skipped as a run; memo writes are told
 * to `memo`, strings by where they lie. The cursor is left on the opcode after the item.
 * Returns the opcodes walked.
 *
 * A dump's helper thread reads its start this way (read-in-parts.ts): about 10x faster than
 * building the values, so its own part can start near the middle of the file.
 */
export function skipItem(
  cursor: PickleCursor,
  memo: SkippedMemoWrites,
  // the reader's bound on open marks: a mark a byte would otherwise cost 8 bytes of memory each
  maxMarks: number,
  object = false,
): number {
  // values above the list's batch (the item is the first), and the depths marks were opened at
  let depth = object ? 0 : 1;
  const marks: number[] = [];
  let ops = 0;
  // a string or class opcode just read: a PUT right after it memoizes it
  let lastStringAt = -1;
  let lastValueEnd = -1;
  let lastModule = '';
  let lastName = '';
  let lastWasClass = false;
  const lost = (what: string): never => {
    throw new FormatError(
      'pickle/unskippable-item',
      `a list item could not be walked past: ${what}`,
      cursor.abs(cursor.offset),
    );
  };
  const toMark = (): number => {
    if (marks.length === 0) lost('an opcode closes a mark the item did not open');
    return marks.pop()!;
  };
  // (a length read first: `cursor.pos += cursor.u8()` would add to the position before the read)
  const skip = (n: number) => {
    cursor.pos += n;
  };
  const put = (index: number, opOffset: number) => {
    if (opOffset !== lastValueEnd) memo.write(index, -1);
    else if (lastWasClass) memo.writeClass(index, lastModule, lastName);
    else memo.write(index, lastStringAt);
  };
  /**
   * The common opcodes of an item (memo reads, numbers, strings, memo writes, dicts and their
   * batches: most of a sample's), walked straight off the window without a call or a switch
   * per opcode; at the window's end the next window is read and the walk goes on. Stops at
   * anything else, a string not whole in the window, the source's last bytes, and where the
   * item may end, which the loop below then reads as usual.
   */
  const walkCommon = () => {
    let w = cursor.window;
    let pos = cursor.pos;
    let last = w.length - 9;
    run: for (;;) {
      while (pos <= last) {
        const op = w[pos];
        const size = PUSH_SIZE[op];
        if (size !== 0) {
          // a value pushed: the depth only grows, nothing to check
          if (op === EMPTY_DICT && !object && depth === 1 && marks.length === 0) break run;
          pos += size;
          depth++;
        } else if (op === 0x58 || op === 0x8c) {
          // BINUNICODE, SHORT_BINUNICODE whose bytes are in the window
          const n =
            op === 0x8c
              ? w[pos + 1]
              : (w[pos + 1] | (w[pos + 2] << 8) | (w[pos + 3] << 16) | (w[pos + 4] << 24)) >>> 0;
          const head = op === 0x8c ? 2 : 5;
          if (n > w.length - pos - head) break run;
          lastStringAt = cursor.windowStart + pos;
          pos += head + n;
          lastValueEnd = cursor.windowStart + pos;
          lastWasClass = false;
          depth++;
        } else if (op === 0x71 || op === 0x72) {
          // BINPUT, LONG_BINPUT: told to the memo with the cursor after the operand, as below
          const index = memoOperand(w, pos, op === 0x71);
          const opOffset = cursor.windowStart + pos;
          cursor.pos = pos += op === 0x71 ? 2 : 5;
          put(index, opOffset);
        } else if (op === 0x75 && marks.length > 0) {
          // SETITEMS closing a mark the item opened
          depth = marks.pop()!;
          pos += 1;
          if (depth < 1 || (marks.length > 0 && depth < marks[marks.length - 1])) {
            cursor.pos = pos;
            lost('an opcode pops the item itself');
          }
        } else break run;
        ops++;
      }
      // the window's end, more of the source after it: the walk goes on in the next window, as
      // readPickle's commonOps does (an opcode there left to the switch below, a case of it the
      // engine had not seen run sent this walk back to the interpreter: 9 times an open)
      if (!cursor.nextRunWindow(pos)) break;
      w = cursor.window;
      pos = cursor.pos;
      last = w.length - 9;
    }
    cursor.pos = pos;
  };
  for (;;) {
    walkCommon();
    const opOffset = cursor.offset;
    const op = cursor.u8();
    if (!object && depth === 1 && marks.length === 0 && (op === EMPTY_DICT || op === APPENDS)) {
      cursor.seek(opOffset);
      return ops;
    }
    ops++;
    switch (op) {
      case 0x80: // PROTO
        cursor.u8();
        break;
      case 0x95: // FRAME
        cursor.u64();
        break;
      case 0x28: {
        // MARK: a batch of numbers appended to a list (a token list) is walked as one run
        const from = cursor.offset;
        const count = cursor.scanNumbers();
        if (count > 0 && cursor.peekU8() === APPENDS) {
          cursor.u8();
          ops += count;
        } else {
          cursor.seek(from);
          if (marks.length >= maxMarks) lost('it opens too many marks');
          marks.push(depth);
        }
        break;
      }
      case 0x30: // POP
        if (marks.length > 0 && marks[marks.length - 1] === depth) marks.pop();
        else depth--;
        break;
      case 0x31: // POP_MARK
      case 0x65: // APPENDS
      case 0x75: // SETITEMS
      case 0x90: // ADDITEMS
        depth = toMark();
        break;
      case 0x6c: // LIST
      case 0x74: // TUPLE
      case 0x64: // DICT
      case 0x91: // FROZENSET
      case 0x6f: // OBJ
        depth = toMark() + 1;
        break;
      case 0x69: // INST
        cursor.line();
        cursor.line();
        depth = toMark() + 1;
        break;
      case 0x4e: // NONE
      case 0x88: // NEWTRUE
      case 0x89: // NEWFALSE
      case 0x5d: // EMPTY_LIST
      case 0x7d: // EMPTY_DICT
      case 0x29: // EMPTY_TUPLE
      case 0x8f: // EMPTY_SET
      case 0x32: // DUP
        depth++;
        break;
      case 0x4b: // BININT1
        cursor.pos++;
        depth++;
        break;
      case 0x4d: // BININT2
        cursor.pos += 2;
        depth++;
        break;
      case 0x4a: // BININT
        cursor.pos += 4;
        depth++;
        break;
      case 0x47: // BINFLOAT
        cursor.pos += 8;
        depth++;
        break;
      case 0x8a: // LONG1
        skip(cursor.u8());
        depth++;
        break;
      case 0x8b: // LONG4
        skip(lengthOf(cursor.i32(), lost));
        depth++;
        break;
      case 0x58: // BINUNICODE
      case 0x8c: // SHORT_BINUNICODE
      case 0x8d: {
        // BINUNICODE8
        const n = op === 0x8c ? cursor.u8() : op === 0x58 ? cursor.u32() : cursor.u64();
        skip(n);
        lastStringAt = opOffset;
        lastValueEnd = cursor.offset;
        lastWasClass = false;
        depth++;
        break;
      }
      case 0x54: // BINSTRING
      case 0x42: // BINBYTES
        skip(lengthOf(cursor.i32(), lost));
        depth++;
        break;
      case 0x55: // SHORT_BINSTRING
      case 0x43: // SHORT_BINBYTES
        skip(cursor.u8());
        depth++;
        break;
      case 0x8e: // BINBYTES8
      case 0x96: // BYTEARRAY8
        skip(cursor.u64());
        depth++;
        break;
      case 0x49: // INT
      case 0x4c: // LONG
      case 0x46: // FLOAT
      case 0x53: // STRING
      case 0x56: // UNICODE
      case 0x50: // PERSID
      case 0x67: // GET
        cursor.line();
        depth++;
        break;
      case 0x63: {
        // GLOBAL
        lastModule = cursor.line();
        lastName = cursor.line();
        lastValueEnd = cursor.offset;
        lastWasClass = true;
        depth++;
        break;
      }
      case 0x68: // BINGET
        cursor.pos++;
        depth++;
        break;
      case 0x6a: // LONG_BINGET
        cursor.pos += 4;
        depth++;
        break;
      case 0x70: // PUT
        put(Number(cursor.line()), opOffset);
        break;
      case 0x71: // BINPUT
        put(cursor.u8(), opOffset);
        break;
      case 0x72: // LONG_BINPUT
        put(cursor.u32(), opOffset);
        break;
      case 0x94: // MEMOIZE
        put(memo.size, opOffset);
        break;
      case 0x61: // APPEND
      case 0x93: // STACK_GLOBAL
      case 0x52: // REDUCE
      case 0x62: // BUILD
      case 0x81: // NEWOBJ
      case 0x86: // TUPLE2
        depth--;
        break;
      case 0x73: // SETITEM
      case 0x87: // TUPLE3
      case 0x92: // NEWOBJ_EX
        depth -= 2;
        break;
      case 0x85: // TUPLE1
      case 0x51: // BINPERSID
      case 0x98: // READONLY_BUFFER
        break;
      default:
        // STOP, out-of-band buffers, extensions, unknown opcodes: the full reader says what
        // is wrong with them
        lost(`opcode 0x${op.toString(16).padStart(2, '0')}`);
    }
    if (depth < 1 || (marks.length > 0 && depth < marks[marks.length - 1]))
      lost('an opcode pops the item itself');
    if (object && op === BUILD && depth === 1 && marks.length === 0) return ops;
  }
}

/**
 * The size of each opcode that pushes one value and reads no more than its fixed operand (BINGET,
 * LONG_BINGET, the numbers, NONE, the booleans, the empty containers), 0 for any other.
 */
const PUSH_SIZE = new Uint8Array(256);
for (const [op, size] of [
  [0x68, 2], // BINGET
  [0x6a, 5], // LONG_BINGET
  [0x4b, 2], // BININT1
  [0x4d, 3], // BININT2
  [0x4a, 5], // BININT
  [0x47, 9], // BINFLOAT
  [0x4e, 1], // NONE
  [0x88, 1], // NEWTRUE
  [0x89, 1], // NEWFALSE
  [0x5d, 1], // EMPTY_LIST
  [EMPTY_DICT, 1],
  [0x29, 1], // EMPTY_TUPLE
])
  PUSH_SIZE[op] = size;

function lengthOf(n: number, lost: (what: string) => never): number {
  if (n < 0) lost('a negative length');
  return n;
}
