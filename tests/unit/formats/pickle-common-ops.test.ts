import { describe, expect, it } from 'vitest';
import { bytesSource } from '../../../src-main/core/bytes/byte-source';
import { FormatError } from '../../../src-main/core/bytes/format-error';
import { PickleCursor } from '../../../src-main/core/formats/pickle/pickle-cursor';
import { readPickle } from '../../../src-main/core/formats/pickle/read-pickle';

// readPickle reads a dump's common opcodes (numbers, strings, memo reads and writes) in a run
// straight off the cursor's window, and leaves the rest to its switch. These pickles are
// written opcode by opcode, with the values CPython's pickle.loads gives for them, and the
// errors at the offsets the switch reports (the opcode's operand read, as before the run).

const PROTO = [0x80, 2];
const MARK = 0x28;
const EMPTY_LIST = 0x5d;
const APPENDS = 0x65;
const EMPTY_DICT = 0x7d;
const SETITEMS = 0x75;
const STOP = 0x2e;
const le32 = (n: number) => {
  const b = new Uint8Array(4);
  new DataView(b.buffer).setUint32(0, n >>> 0, true);
  return [...b];
};
const f64be = (x: number) => {
  const b = new Uint8Array(8);
  new DataView(b.buffer).setFloat64(0, x, false);
  return [...b];
};
const binunicode = (text: string) => {
  const bytes = new TextEncoder().encode(text);
  return [0x58, ...le32(bytes.length), ...bytes];
};
const BINPUT = (i: number) => [0x71, i];
const LONG_BINPUT = (i: number) => [0x72, ...le32(i)];
const BINGET = (i: number) => [0x68, i];
const LONG_BINGET = (i: number) => [0x6a, ...le32(i)];

function read(ops: number[]) {
  const bytes = new Uint8Array([...PROTO, ...ops]);
  return readPickle(new PickleCursor(bytesSource('common.pkl', bytes), 0, 0)).value;
}

function failure(ops: number[]): { code: string; offset: number | undefined } {
  try {
    read(ops);
  } catch (error) {
    if (error instanceof FormatError) return { code: error.code, offset: error.offset };
    throw error;
  }
  throw new Error('read without an error');
}

describe('the run of common opcodes', () => {
  it('reads every number width, strings, None and booleans as the switch does', () => {
    const value = read([
      EMPTY_LIST,
      MARK,
      ...[0x4b, 0xff], // BININT1 255
      ...[0x4d, 0x34, 0x12], // BININT2 0x1234
      ...[0x4a, ...le32(-2)], // BININT -2: signed
      ...[0x4a, ...le32(0x7fffffff)],
      ...[0x47, ...f64be(-0.125)], // BINFLOAT, big-endian
      ...binunicode('span_start'),
      ...binunicode('événement ✓'), // not ASCII: decoded as UTF-8
      0x4e, // NONE
      0x88, // NEWTRUE
      0x89, // NEWFALSE
      APPENDS,
      STOP,
    ]);
    expect(value).toEqual([
      255,
      0x1234,
      -2,
      0x7fffffff,
      -0.125,
      'span_start',
      'événement ✓',
      null,
      true,
      false,
    ]);
  });

  it('reads memo slots back, short and long, strings and containers alike', () => {
    // {'name': 'a', 'nested': {'name': 'a'}, 'again': <the nested dict>}: the nested dict is
    // read back through the memo (a container, left to the switch)
    const value = read([
      EMPTY_DICT,
      ...BINPUT(0),
      MARK,
      ...binunicode('name'),
      ...BINPUT(1),
      ...binunicode('a'),
      ...LONG_BINPUT(70_000),
      ...binunicode('nested'),
      EMPTY_DICT,
      ...LONG_BINPUT(2),
      MARK,
      ...LONG_BINGET(1),
      ...BINGET(0x01),
      SETITEMS,
      ...binunicode('again'),
      ...BINGET(2),
      ...binunicode('last'),
      ...LONG_BINGET(70_000),
      SETITEMS,
      STOP,
    ]) as Record<string, unknown>;
    // (as JSON: a container read back carries the reader's depth marks under symbols)
    expect(JSON.parse(JSON.stringify(value))).toEqual({
      name: 'a',
      nested: { name: 'name' },
      again: { name: 'name' },
      last: 'a',
    });
    expect(value.again).toBe(value.nested);
  });

  it('fails a memo read of a slot never written with its code, at the opcode', () => {
    // PROTO (2 bytes), then EMPTY_LIST at 2, BINGET at 3: the switch reads its operand first
    expect(failure([EMPTY_LIST, ...BINGET(7), STOP])).toEqual({
      code: 'pickle/bad-memo',
      offset: 5,
    });
    expect(failure([EMPTY_LIST, ...LONG_BINGET(9), STOP])).toEqual({
      code: 'pickle/bad-memo',
      offset: 8,
    });
  });

  it('fails a memo write with nothing on the stack, and a stack left full, with their codes', () => {
    expect(failure([...BINPUT(0), STOP])).toEqual({ code: 'pickle/stack-underflow', offset: 4 });
    expect(failure([0x4b, 1, 0x4b, 2, STOP]).code).toBe('pickle/stack-not-empty');
  });

  it('builds dicts (EMPTY_DICT, MARK, SETITEMS) in the run as the switch does', () => {
    // [{'type': 'span_start', 'ts': 1.5, 'attrs': {'n': 1}, 'index': 3},
    //  {'type': <memo 1>, 'attrs': {}, 'x': None}]: a list's MARK is the switch's, a dict's the run's
    const value = read([
      EMPTY_LIST,
      MARK,
      EMPTY_DICT,
      MARK,
      ...binunicode('type'),
      ...BINPUT(1),
      ...binunicode('span_start'),
      ...binunicode('ts'),
      ...[0x47, ...f64be(1.5)],
      ...binunicode('attrs'),
      EMPTY_DICT,
      MARK,
      ...binunicode('n'),
      ...[0x4b, 1],
      SETITEMS,
      ...binunicode('index'),
      ...[0x4b, 3],
      SETITEMS,
      EMPTY_DICT,
      MARK,
      ...BINGET(1),
      ...binunicode('span_end'),
      ...binunicode('attrs'),
      EMPTY_DICT,
      ...binunicode('x'),
      0x4e,
      SETITEMS,
      APPENDS,
      STOP,
    ]);
    expect(JSON.parse(JSON.stringify(value))).toEqual([
      { type: 'span_start', ts: 1.5, attrs: { n: 1 }, index: 3 },
      { type: 'span_end', attrs: {}, x: null },
    ]);
  });

  it('fails a dict batch the run cannot take with the switch’s code and offset', () => {
    // an odd batch: SETITEMS at offset 7 (PROTO 2, EMPTY_DICT, MARK, BININT1 1 at 4..5, ... )
    expect(failure([EMPTY_DICT, MARK, 0x4b, 1, 0x4b, 2, 0x4b, 3, SETITEMS, STOP])).toEqual({
      code: 'pickle/bad-setitems',
      offset: 11,
    });
    // SETITEMS with no mark, and onto something that is not a dict
    expect(failure([EMPTY_DICT, 0x4b, 1, 0x4b, 2, SETITEMS, STOP]).code).toBe('pickle/no-mark');
    expect(failure([0x4b, 1, MARK, 0x4b, 1, 0x4b, 2, SETITEMS, STOP]).code).toBe(
      'pickle/bad-setitem',
    );
  });

  it('fails dicts nested too deep in the run where the switch would, after the SETITEMS', () => {
    // 300 dicts, each set as the value of the one before: {'k': {'k': ...}}
    const depth = 300;
    const ops: number[] = [];
    for (let i = 0; i < depth; i++) ops.push(EMPTY_DICT, MARK, ...binunicode('k'));
    ops.push(EMPTY_DICT);
    const closing: number[] = [];
    for (let i = 0; i < depth; i++) closing.push(SETITEMS);
    const all = [...ops, ...closing, STOP];
    const { code, offset } = failure(all);
    expect(code).toBe('pickle/too-deep');
    // the innermost dict is 0 deep, the one the 257th SETITEMS fills 257: it fails, just
    // past its opcode
    expect(offset).toBe(PROTO.length + ops.length + 257);
  });

  it('fails a string that runs past the end of the file as truncated', () => {
    const cut = binunicode('a string cut short').slice(0, 10);
    expect(failure([...cut]).code).toBe('pickle/truncated');
  });
});
