import { describe, expect, it } from 'vitest';
import { bytesSource } from '../../../src-main/core/bytes/byte-source';
import { FormatError } from '../../../src-main/core/bytes/format-error';
import { PickleCursor } from '../../../src-main/core/formats/pickle/pickle-cursor';
import { PickleReplay } from '../../../src-main/core/formats/pickle/pickle-replay';
import { readPickle } from '../../../src-main/core/formats/pickle/read-pickle';
import type { PyValue } from '../../../src-main/core/model/py-value';
import { OP, int, key } from '../../support/pickle-opcodes';

// A helper thread walks past the samples before its part (PickleOptions.skipListItem,
// skip-item.ts): the items it reads after must come out exactly as a whole read gives them,
// reading back the strings and classes a skipped item memoized, and whatever the walk cannot
// follow must fail with a code rather than read on misaligned. Pickles written opcode by opcode.

const { EMPTY_LIST, EMPTY_DICT, MARK, APPENDS, SETITEM, SETITEMS, POP, STOP, BINPUT, BINGET } = OP;
const PROTO4 = [0x80, 4];
const GLOBAL = (module: string, name: string) => [
  0x63,
  ...new TextEncoder().encode(`${module}\n${name}\n`),
];
const BINFLOAT = (v: number) => {
  const b = new DataView(new ArrayBuffer(8));
  b.setFloat64(0, v, false);
  return [0x47, ...new Uint8Array(b.buffer)];
};
const LONG_BINPUT = (slot: number) => [0x72, slot & 0xff, (slot >> 8) & 0xff, 0, 0];
const text = (s: string) => {
  const bytes = new TextEncoder().encode(s);
  return [0x58, bytes.length, 0, 0, 0, ...bytes]; // BINUNICODE
};

/** {'i': i} */
const small = (i: number) => [EMPTY_DICT, ...key('i'), ...int(i), SETITEM];

/**
 * Every kind of value a sample may hold, memoizing a string (slot 10), a class (slot 11), a
 * list of tokens (slot 12) and a long text (slot 13, MEMOIZE-free: LONG_BINPUT).
 */
const rich = (i: number) => [
  EMPTY_DICT,
  BINPUT,
  20 + i,
  MARK,
  ...key('i'),
  ...int(i),
  ...key('name'),
  ...key('alpha'),
  BINPUT,
  10,
  ...key('cls'),
  ...GLOBAL('some.module', 'Kls'),
  BINPUT,
  11,
  ...key('tokens'),
  EMPTY_LIST,
  BINPUT,
  12,
  MARK,
  ...Array.from({ length: 70 }, (_, k) => int(k % 200)).flat(),
  APPENDS,
  ...key('text'),
  ...text('a longer text, with ünïcode'),
  ...LONG_BINPUT(13),
  ...key('pair'),
  ...int(1),
  ...BINFLOAT(2.5),
  0x86, // TUPLE2
  ...key('nested'),
  EMPTY_DICT,
  ...key('x'),
  EMPTY_LIST,
  MARK,
  ...int(1),
  0x4e, // NONE
  0x88, // NEWTRUE
  APPENDS,
  SETITEM,
  ...key('big'),
  0x8a, // LONG1
  9,
  1,
  0,
  0,
  0,
  0,
  0,
  0,
  0,
  1,
  ...key('blob'),
  0x43, // SHORT_BINBYTES
  3,
  7,
  8,
  9,
  ...key('obj'),
  ...GLOBAL('other.module', 'Thing'),
  0x29, // EMPTY_TUPLE
  0x81, // NEWOBJ
  EMPTY_DICT,
  ...key('state'),
  ...int(5),
  SETITEM,
  0x62, // BUILD
  SETITEMS,
];

/** a sample that reads back what `rich` memoized: the string, the class, the text */
const reader = (i: number) => [
  EMPTY_DICT,
  MARK,
  ...key('i'),
  ...int(i),
  ...key('name'),
  BINGET,
  10,
  ...key('cls'),
  BINGET,
  11,
  ...key('text'),
  BINGET,
  13,
  SETITEMS,
];

/** reader(3) after a skipped rich(2): what it read back that the skipped item memoized */
const READ_BACK_3 = {
  i: 3,
  name: 'alpha',
  cls: { $kind: 'class', module: 'some.module', name: 'Kls' },
  text: 'a longer text, with ünïcode',
};

/** [batch 1 (makes the list the watched one), then `later` as the second batch] */
const listPickle = (later: number[][]) =>
  new Uint8Array([
    ...PROTO4,
    EMPTY_LIST,
    BINPUT,
    0,
    MARK,
    ...small(0),
    ...small(1),
    APPENDS,
    MARK,
    ...later.flat(),
    APPENDS,
    STOP,
  ]);

/** as JSON sees it: without the depth the reader keeps on containers under a symbol */
const plain = (v: unknown) =>
  JSON.parse(
    JSON.stringify(v, (_k, x: unknown) => (typeof x === 'bigint' ? `${x}n` : x)),
  ) as unknown;

function read(bytes: Uint8Array, skip: (index: number) => boolean, replay?: PickleReplay) {
  const asked: { index: number; start: number }[] = [];
  const { value } = readPickle(new PickleCursor(bytesSource('list.pkl', bytes), 0, 0), {
    // the top list only (its items' own lists are appended too)
    onAppend: (_list, depth) => depth === 0,
    onListItem: (_list, _index, item) => item,
    skipListItem: (_list, index, start) => {
      asked.push({ index, start });
      return skip(index);
    },
    replay,
  });
  return { value: value as PyValue[], asked };
}

describe('walking past a list’s items (PickleOptions.skipListItem)', () => {
  const bytes = listPickle([rich(2), reader(3), small(4), rich(5), reader(6)]);
  const whole = read(bytes, () => false);

  it('is asked for each item of the later batches, with where its bytes start', () => {
    expect(whole.asked.map((a) => a.index)).toEqual([2, 3, 4, 5, 6]);
    for (const { start } of whole.asked) expect(bytes[start]).toBe(EMPTY_DICT);
  });

  it('leaves null where it skipped, and every other item as a whole read gives it', () => {
    const skipped = read(bytes, (index) => index === 2 || index === 4);
    const expected = plain(whole.value) as unknown[];
    expected[2] = null;
    expected[4] = null;
    expect(plain(skipped.value)).toEqual(expected);
    // what the reader read back from the skipped item: the string, the class, the text
    expect(plain(skipped.value[3])).toEqual(READ_BACK_3);
    // a full item after a skipped one of the same shape reads as the whole read gives it
    expect(plain(skipped.value[5])).toEqual(plain(whole.value[5]));
  });

  it('skips items that reach back to a memo slot of an earlier one, and tokens in runs', () => {
    const all = read(bytes, (index) => index !== 6);
    expect((all.value as unknown[]).slice(2, 6)).toEqual([null, null, null, null]);
    expect(plain(all.value[6])).toEqual(plain(whole.value[6]));
  });

  it('fails as a forgotten slot when a later item reads back a container of a skipped one', () => {
    const shared = listPickle([rich(2), [EMPTY_DICT, ...key('tokens'), BINGET, 12, SETITEM]]);
    expect(() => read(shared, (index) => index === 2)).toThrow(
      expect.objectContaining({ code: 'pickle/memo-forgotten' }),
    );
    // read whole, it shares the list
    const items = read(shared, () => false).value as Record<string, PyValue>[];
    expect(items[3].tokens).toBe(items[2].tokens);
    expect(items[3].tokens).toMatchObject({ $kind: 'lazy-list', length: 70 });
  });

  it('walks an item across the end of the cursor’s window as one wholly inside it', () => {
    // batch 1 holds a filler of n bytes, so that rich(2) starts `before` bytes short of the
    // window's end (8 MiB, pickle-cursor.ts): its opcodes cut there are read one at a time
    const WINDOW = 8 * 1024 * 1024;
    const head = [...PROTO4, EMPTY_LIST, BINPUT, 0, MARK, ...small(0)];
    const fillerHead = [EMPTY_DICT, ...key('f'), 0x42, 0, 0, 0, 0];
    for (let before = 1; before < rich(2).length; before += 13) {
      const n = WINDOW - before - head.length - fillerHead.length - 1 - 1 - 1;
      const filler = new Uint8Array(fillerHead.length + n + 1);
      filler.set(fillerHead);
      new DataView(filler.buffer).setUint32(fillerHead.length - 4, n, true);
      filler[filler.length - 1] = SETITEM;
      const bytes = new Uint8Array([
        ...head,
        ...filler,
        APPENDS,
        MARK,
        ...rich(2),
        ...reader(3),
        APPENDS,
        STOP,
      ]);
      expect(bytes.indexOf(EMPTY_DICT, WINDOW - before - 2)).toBe(WINDOW - before);
      const skipped = read(bytes, (index) => index === 2);
      expect(skipped.value[2]).toBeNull();
      expect(plain(skipped.value[3])).toEqual(READ_BACK_3);
    }
  });

  it('fails with a code on an item it cannot walk (one that pops below itself)', () => {
    const popping = listPickle([[EMPTY_DICT, POP, POP], small(3)]);
    let error: unknown;
    try {
      read(popping, (index) => index === 2);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(FormatError);
    expect((error as FormatError).code).toBe('pickle/unskippable-item');
  });

  it('fails with a code on an item that opens marks without end (a byte each), holding none', () => {
    const marks = listPickle([[EMPTY_DICT, ...new Array<number>(200_000).fill(MARK)], small(3)]);
    // stopped at the bound, not at the end of the pickle
    expect(() => read(marks, (index) => index === 2)).toThrow(
      expect.objectContaining({
        code: 'pickle/unskippable-item',
        message: expect.stringContaining('too many marks') as unknown,
      }),
    );
  });

  it('fails as memo-rewritten when a skipped item writes a slot an item read alone took', () => {
    // item 2 is read (with replay, it keeps slot 5 that it read from batch 1's key), item 3,
    // skipped, writes slot 5 again: reading item 2 alone would then misread it
    const rewriting = new Uint8Array([
      ...PROTO4,
      EMPTY_LIST,
      BINPUT,
      0,
      MARK,
      EMPTY_DICT,
      ...key('k'),
      BINPUT,
      5,
      ...int(0),
      SETITEM,
      ...small(1),
      APPENDS,
      MARK,
      EMPTY_DICT,
      BINGET,
      5,
      ...int(2),
      SETITEM,
      EMPTY_DICT,
      ...key('other'),
      BINPUT,
      5,
      ...int(3),
      SETITEM,
      APPENDS,
      STOP,
    ]);
    expect(() => read(rewriting, (index) => index === 3, new PickleReplay())).toThrow(
      expect.objectContaining({ code: 'pickle/memo-rewritten' }),
    );
  });
});

describe('walking past object items (a class read back, NEWOBJ, then BUILD from a dict)', () => {
  const [EMPTY_TUPLE, NEWOBJ, BUILD] = [0x29, 0x81, 0x62];
  /** memo slot of the class, written by the first batch's object */
  const KLASS = 30;
  const objectItem = (i: number, state: number[]) => [
    BINGET,
    KLASS,
    EMPTY_TUPLE,
    NEWOBJ,
    BINPUT,
    40 + i,
    ...state,
    BUILD,
  ];
  const objectList = (later: number[][]) =>
    new Uint8Array([
      ...PROTO4,
      EMPTY_LIST,
      BINPUT,
      0,
      MARK,
      ...GLOBAL('slime.utils.types', 'Sample'),
      BINPUT,
      KLASS,
      EMPTY_TUPLE,
      NEWOBJ,
      ...small(0),
      BUILD,
      ...small(1),
      APPENDS,
      MARK,
      ...later.flat(),
      APPENDS,
      STOP,
    ]);
  // a state holding every kind of value, an object BUILT inside it included
  const bytes = objectList([
    objectItem(2, rich(2)),
    objectItem(3, reader(3)),
    objectItem(4, small(4)),
  ]);
  const whole = read(bytes, () => false);

  it('is asked for each object item at its class, and reads each as the dict it was built from', () => {
    expect(whole.asked.map((a) => a.index)).toEqual([2, 3, 4]);
    for (const { start } of whole.asked) expect(bytes[start]).toBe(BINGET);
    expect(plain(whole.value[4])).toEqual({ i: 4 });
  });

  it('walks past an object item to its BUILD; the items after it read as a whole read gives them', () => {
    const skipped = read(bytes, (index) => index === 2);
    const expected = plain(whole.value) as unknown[];
    expected[2] = null;
    expect(plain(skipped.value)).toEqual(expected);
    // what the reader read back from the walked-past object: the string, the class, the text
    expect(plain(skipped.value[3])).toEqual(READ_BACK_3);
    expect((plain(read(bytes, () => true).value) as unknown[]).slice(2)).toEqual([
      null,
      null,
      null,
    ]);
  });

  it('fails with a code on an object item that is never built', () => {
    const unbuilt = objectList([[BINGET, KLASS, EMPTY_TUPLE, NEWOBJ], small(3)]);
    expect(() => read(unbuilt, (index) => index === 2)).toThrow(
      expect.objectContaining({ code: 'pickle/unskippable-item' }),
    );
  });
});
